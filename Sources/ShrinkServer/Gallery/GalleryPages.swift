import Shrink
import ShrinkServerURL

/// The gallery's HTML, rendered on the server: a folder page (breadcrumbs, sub-folders, a page of tiles), an
/// image's inspector and the login form. Every name and message is escaped (``HTML``); the pages load one
/// script and one style sheet from `/_/` and carry no inline script or style (the CSP forbids both).
package struct GalleryPages: Sendable {
    /// Tiles per page.
    package static let pageSize = 100
    /// Tiles shown eagerly (the first row on a wide screen); the rest load lazily.
    package static let eagerTiles = 6
    /// The widths of the `srcset` candidates.
    package static let widths = [320, 640, 960]

    let keys: SigningKeys

    /// The inspector's decode of the 640 px tile, made again alone for the page: what was predicted from the
    /// header and what the heap really grew by.
    package struct Measurement: Sendable {
        package var predictedPeakBytes: Int
        package var measuredPeakBytes: Int
        package var decodePath: String
        package var pixelFormat: String
    }

    /// A signed image URL for the file at `path` (under the root) fitted into `size` × `size`.
    package func imageURL(_ path: String, fit size: Int) -> String {
        let signed = SignedPath.path(
            options: "rs:fit:\(size):\(size)", source: "local://" + path, ext: nil, base64: false)
        return "/" + (keys.isEnabled ? keys.sign(signed) : "insecure") + signed
    }

    /// The `srcset` candidates of an image shown at `size`: each fit in ``widths`` with the width the server
    /// really sends for it (never enlarged), so the browser knows each candidate's density; fits that give the
    /// same image as a smaller fit are left out (a 200 px photo has one candidate).
    package func candidates(_ size: PixelSize) -> [(fit: Int, width: Int)] {
        var seen = Set<Int>()
        return Self.widths.compactMap { fit in
            let width = ThumbnailPlan.fitted(size, inside: PixelSize(width: fit, height: fit), allowUpscaling: false)
                .width
            return seen.insert(width).inserted ? (fit, width) : nil
        }
    }

    /// The `<li>` of one tile: a link to its inspector around an `<img>` with `srcset`, `sizes`, the displayed
    /// `width`/`height` from the header (so the box never moves), `decoding=async` and, unless `eager`,
    /// `loading=lazy`; or a readable error.
    package func tile(_ t: GalleryTile, eager: Bool) -> String {
        let name = HTML.escape(t.name)
        guard let path = t.path, let info = t.info else {
            let inspect = t.path.map { "/_/inspect" + HTML.pathComponentEncoded($0) }
            let body = "<span class=\"error-text\">\(HTML.escape(t.error ?? "cannot be read"))</span>"
            return "<li class=\"tile tile-error\">"
                + (inspect.map { "<a href=\"\(HTML.escape($0))\">\(body)</a>" } ?? body)
                + "<span class=\"name\">\(name)</span></li>"
        }
        let size = info.displayedSize
        let srcset = candidates(size).map { "\(HTML.escape(imageURL(path, fit: $0.fit))) \($0.width)w" }.joined(
            separator: ", ")
        return "<li class=\"tile\"><a href=\"\(HTML.escape("/_/inspect" + HTML.pathComponentEncoded(path)))\">"
            + "<img src=\"\(HTML.escape(imageURL(path, fit: Self.widths[0])))\" srcset=\"\(srcset)\" "
            + "sizes=\"(max-width: 560px) 45vw, 240px\" width=\"\(size.width)\" height=\"\(size.height)\" alt=\"\(name)\" "
            + "decoding=\"async\"\(eager ? "" : " loading=\"lazy\"")></a><span class=\"name\">\(name)</span></li>"
    }

    /// The page of folder `folder` (relative to the root): breadcrumbs, sub-folders first, then page `page`
    /// (from 1) of tiles.
    package func folder(_ folder: String, listing: GalleryIndex.Listing, tiles: [GalleryTile], page: Int, pages: Int)
        -> String
    {
        var html = head(title: folder == "/" ? "Gallery" : folder)
        html += "<nav class=\"crumbs\">" + crumbs(folder) + "</nav>\n"
        html +=
            "<p class=\"summary\">\(listing.folders.count) folder(s), \(listing.images.count) image(s)"
            + (pages > 1 ? ", page \(page) of \(pages)" : "")
            + ". Drop photos anywhere on this page to upload them here.</p>\n"
        html += "<p id=\"upload-status\" class=\"status\" role=\"status\"></p>\n"
        if !listing.folders.isEmpty {
            html += "<ul class=\"folders\">"
            for f in listing.folders {
                let href =
                    "/_/browse" + HTML.pathComponentEncoded((folder.hasSuffix("/") ? folder : folder + "/") + f) + "/"
                html += "<li><a href=\"\(HTML.escape(href))\">\(HTML.escape(f))/</a></li>"
            }
            html += "</ul>\n"
        }
        html += "<ul class=\"grid\" id=\"grid\" data-folder=\"\(HTML.escape(folder))\">"
        for (i, t) in tiles.enumerated() { html += tile(t, eager: page == 1 && i < Self.eagerTiles) }
        html += "</ul>\n"
        if pages > 1 {
            html += "<nav class=\"pages\">"
            if page > 1 { html += "<a rel=\"prev\" href=\"?page=\(page - 1)\">← previous</a> " }
            if page < pages { html += "<a rel=\"next\" href=\"?page=\(page + 1)\">next →</a>" }
            html += "</nav>\n"
        }
        return html + tail()
    }

    /// The inspector of `tile` (in `folder`), with links to the previous and next image: the header's facts and
    /// the plan for the 640 px tile from the server, and what serving it cost (response headers and telemetry)
    /// filled in by the script from the image's own response.
    package func inspector(
        _ t: GalleryTile, folder: String, plan: ThumbnailPlan?, measurement: Measurement?,
        previous: String?, next: String?
    ) -> String {
        var html = head(title: t.name)
        html +=
            "<nav class=\"crumbs\">" + crumbs(folder) + " <span class=\"here\">\(HTML.escape(t.name))</span></nav>\n"
        html += "<nav class=\"step\">"
        if let previous {
            html +=
                "<a id=\"prev\" rel=\"prev\" href=\"\(HTML.escape("/_/inspect" + HTML.pathComponentEncoded(previous)))\">← previous</a> "
        }
        html +=
            "<a id=\"up\" href=\"\(HTML.escape("/_/browse" + HTML.pathComponentEncoded(folder.hasSuffix("/") ? folder : folder + "/")))\">folder (Esc)</a>"
        if let next {
            html +=
                " <a id=\"next\" rel=\"next\" href=\"\(HTML.escape("/_/inspect" + HTML.pathComponentEncoded(next)))\">next →</a>"
        }
        html += "</nav>\n<div class=\"inspector\">"
        if let path = t.path, let info = t.info {
            let url = imageURL(path, fit: 640)
            let size = info.displayedSize
            html +=
                "<figure><img id=\"subject\" src=\"\(HTML.escape(url))\" width=\"\(size.width)\" height=\"\(size.height)\" alt=\"\(HTML.escape(t.name))\"></figure>"
            var rows: [(String, String)] = [
                ("format", info.format.description), ("file bytes", String(t.bytes)),
                ("stored size", "\(info.size.width) × \(info.size.height)"),
                ("displayed size", "\(size.width) × \(size.height)"),
                (
                    "orientation",
                    info.orientation == .up ? "up" : "\(info.orientation) (from \(info.orientationSource))"
                ),
                ("layout", info.layout ?? "—"),
                ("colour", Self.color(info)),
                ("bits per component", String(info.bitsPerComponent)), ("alpha", info.hasAlpha ? "yes" : "no"),
            ]
            if let c = info.chromaSubsampling { rows.append(("chroma subsampling", c.rawValue)) }
            if info.frameCount > 1 { rows.append(("frames", String(info.frameCount))) }
            rows.append(("warnings", info.warnings.isEmpty ? "none" : info.warnings.joined(separator: "; ")))
            html += "<section><h2>Source</h2>" + table(rows, id: "source") + "</section>"
            if let plan {
                var rows = [
                    ("output size", "\(plan.outputSize.width) × \(plan.outputSize.height)"),
                    ("DCT scale", plan.prescaleText),
                    ("decoded size", "\(plan.decodedSize.width) × \(plan.decodedSize.height)"),
                    ("resamples", plan.resamples ? "yes" : "no"),
                ]
                if let m = measurement {
                    rows += [
                        ("decode path", m.decodePath), ("pixel format", m.pixelFormat),
                        ("predicted peak bytes", String(m.predictedPeakBytes)),
                        ("measured peak bytes", String(m.measuredPeakBytes)),
                    ]
                }
                html +=
                    "<section><h2>Plan for the 640 px tile</h2>" + table(rows, id: "plan")
                    + "<p class=\"note\">Measured: the heap's growth while this page decoded the tile again, sampled between strips "
                    + "(process-wide: other decodes at the same moment add to it).</p></section>"
            }
            html +=
                "<section><h2>What serving it cost</h2><p class=\"note\">From this image's response: its headers and "
                + "the server's telemetry for its ETag.</p><table id=\"cost\" data-url=\"\(HTML.escape(url))\"><tbody></tbody></table></section>"
        } else {
            html += "<p class=\"error-text\">\(HTML.escape(t.error ?? "cannot be read"))</p>"
        }
        return html + "</div>\n" + tail()
    }

    /// The login form (a token is configured and the request carried none).
    package func login(failed: Bool) -> String {
        head(title: "Gallery login") + "<form class=\"login\" method=\"post\" action=\"/_/login\"><label>Gallery token "
            + "<input type=\"password\" name=\"token\" autocomplete=\"current-password\" autofocus></label> <button>Log in</button>"
            + (failed ? "<p class=\"error-text\">That is not the token.</p>" : "") + "</form>\n" + tail()
    }

    private func head(title: String) -> String {
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<meta name=\"color-scheme\" content=\"light dark\"><title>\(HTML.escape(title)) · Shrink</title>"
            + "<link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/_/gallery.css\"><script src=\"/_/gallery.js\" defer></script></head>\n<body>\n"
            + "<header><a class=\"brand\" href=\"/_/browse/\">Shrink gallery</a><span id=\"live\" class=\"live\" aria-live=\"polite\"></span></header>\n<main>\n"
    }

    private func tail() -> String { "</main>\n</body></html>\n" }

    private func crumbs(_ folder: String) -> String {
        var html = "<a href=\"/_/browse/\">root</a>"
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            html +=
                " / <a href=\"\(HTML.escape("/_/browse" + HTML.pathComponentEncoded(path) + "/"))\">\(HTML.escape(part))</a>"
        }
        return html
    }

    private func table(_ rows: [(String, String)], id: String) -> String {
        "<table id=\"\(id)\"><tbody>"
            + rows.map { "<tr><th>\(HTML.escape($0.0))</th><td>\(HTML.escape($0.1))</td></tr>" }.joined()
            + "</tbody></table>"
    }

    static func color(_ info: ImageInfo) -> String {
        var parts = [info.colorModel.rawValue]
        if info.iccProfileBytes > 0 { parts.append("ICC profile, \(info.iccProfileBytes) bytes") }
        if let coded = info.codedColor { parts.append("coded: \(coded)") }
        if info.iccProfileBytes == 0 && info.codedColor == nil { parts.append("untagged (sRGB assumed)") }
        return parts.joined(separator: ", ")
    }
}
