import Shrink
import ShrinkServerURL

/// The gallery's HTML, rendered on the server from the templates in `Templates/` (``GalleryTemplates``): a folder
/// page (breadcrumbs, sub-folders, a page of tiles), an image's inspector and the login form. This type decides
/// what a page shows (URLs, sizes, the inspector's facts); the templates only lay it out. Every name and message
/// is escaped by ``HTML`` as the templates print it; the pages load one script and one style sheet from `/_/`
/// and carry no inline script or style (the CSP forbids both).
package struct GalleryPages: Sendable {
    /// Tiles per page.
    package static let pageSize = 100
    /// Tiles loaded eagerly: a first screen of three rows of five on a wide screen, requested as the page is parsed
    /// instead of after its first layout (a phone's lazy-load margin reaches as far anyway); the rest load lazily.
    package static let eagerTiles = 15
    /// The widths of the `srcset` candidates: 240 is a wide screen's tile at one device pixel per CSS pixel (its
    /// decode is at 1/8 of a 12 MP photo, where 320 needs 1/4).
    package static let widths = [240, 320, 640, 960]

    let keys: SigningKeys
    let templates: GalleryTemplates

    init(keys: SigningKeys) throws(ConfigurationError) {
        self.keys = keys
        templates = try GalleryTemplates()
    }

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

    /// The `<li>` of one tile (`tile.mustache`): a link to its inspector around an `<img>` with `srcset`, `sizes`,
    /// the displayed `width`/`height` from the header (so the box never moves), `decoding=async` and, unless
    /// `eager`, `loading=lazy`; or a readable error.
    package func tile(_ t: GalleryTile, eager: Bool) -> String {
        templates.render(tileContext(t, eager: eager), "tile")
    }

    func tileContext(_ t: GalleryTile, eager: Bool) -> GalleryTemplates.Tile {
        let inspect = t.path.map { "/_/inspect" + HTML.pathComponentEncoded($0) }
        guard let path = t.path, let info = t.info else {
            return .init(
                name: t.name, inspectHref: inspect, error: t.error ?? "cannot be read", image: nil, eager: eager)
        }
        let size = info.displayedSize
        let image = GalleryTemplates.TileImage(
            src: imageURL(path, fit: Self.widths[0]),
            srcset: candidates(size).map { .init(url: imageURL(path, fit: $0.fit), width: $0.width) },
            width: size.width, height: size.height)
        return .init(name: t.name, inspectHref: inspect, error: nil, image: image, eager: eager)
    }

    /// The page of folder `folder` (relative to the root): breadcrumbs, sub-folders first, then page `page`
    /// (from 1) of tiles (`folder.mustache`).
    package func folder(_ folder: String, listing: GalleryIndex.Listing, tiles: [GalleryTile], page: Int, pages: Int)
        -> String
    {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let context = GalleryTemplates.FolderPage(
            title: folder == "/" ? "Gallery" : folder, crumbs: crumbs(folder),
            folderCount: listing.folders.count, imageCount: listing.images.count,
            paged: pages > 1, page: page, pages: pages,
            folders: listing.folders.map {
                .init(href: "/_/browse" + HTML.pathComponentEncoded(base + $0) + "/", name: $0)
            },
            folder: folder,
            tiles: tiles.enumerated().map { tileContext($0.element, eager: page == 1 && $0.offset < Self.eagerTiles) },
            previousPage: page > 1 ? page - 1 : nil, nextPage: page < pages ? page + 1 : nil)
        return templates.render(context, "folder")
    }

    /// The inspector of `tile` (in `folder`), with links to the previous and next image: the header's facts and
    /// the plan for the 640 px tile from the server, and what serving it cost (response headers and telemetry)
    /// filled in by the script from the image's own response (`inspector.mustache`).
    package func inspector(
        _ t: GalleryTile, folder: String, plan: ThumbnailPlan?, measurement: Measurement?,
        previous: String?, next: String?
    ) -> String {
        var image: GalleryTemplates.InspectorImage?
        if let path = t.path, let info = t.info {
            let size = info.displayedSize
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
            let planTable = plan.map { plan in
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
                return Self.table(rows, id: "plan")
            }
            image = .init(
                url: imageURL(path, fit: 640), width: size.width, height: size.height,
                source: Self.table(rows, id: "source"), plan: planTable)
        }
        let context = GalleryTemplates.InspectorPage(
            title: t.name, crumbs: crumbs(folder), name: t.name,
            previousHref: previous.map { "/_/inspect" + HTML.pathComponentEncoded($0) },
            upHref: "/_/browse" + HTML.pathComponentEncoded(folder.hasSuffix("/") ? folder : folder + "/"),
            nextHref: next.map { "/_/inspect" + HTML.pathComponentEncoded($0) },
            image: image, error: image == nil ? t.error ?? "cannot be read" : nil)
        return templates.render(context, "inspector")
    }

    /// The login form (a token is configured and the request carried none) (`login.mustache`).
    package func login(failed: Bool) -> String {
        templates.render(GalleryTemplates.LoginPage(title: "Gallery login", failed: failed), "login")
    }

    private func crumbs(_ folder: String) -> [GalleryTemplates.Link] {
        var path = ""
        return folder.split(separator: "/").map { part in
            path += "/" + part
            return .init(href: "/_/browse" + HTML.pathComponentEncoded(path) + "/", name: String(part))
        }
    }

    private static func table(_ rows: [(String, String)], id: String) -> GalleryTemplates.Table {
        .init(id: id, rows: rows.map { .init(label: $0.0, value: $0.1) })
    }

    static func color(_ info: ImageInfo) -> String {
        var parts = [info.colorModel.rawValue]
        if info.iccProfileBytes > 0 { parts.append("ICC profile, \(info.iccProfileBytes) bytes") }
        if let coded = info.codedColor { parts.append("coded: \(coded)") }
        if info.iccProfileBytes == 0 && info.codedColor == nil { parts.append("untagged (sRGB assumed)") }
        return parts.joined(separator: ", ")
    }
}
