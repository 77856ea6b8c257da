import Foundation
import Shrink
import Testing
@testable import ShrinkServerURL

@Suite struct ProcessingURLTests {
    @Test func plainSourceKeepsBothSlashesAndIsSignedAsReceived() throws {
        let url = try ProcessingURL("/sig/rs:fit:300:200/plain/http://example.com//a.jpg@png?x=1")
        #expect(url.signature == "sig")
        #expect(url.signedPath == "/rs:fit:300:200/plain/http://example.com//a.jpg@png")
        #expect(url.source == "http://example.com//a.jpg")
        #expect(url.extensionFormat == .png)
        #expect(url.options.resizingType == .fit && url.options.width == 300 && url.options.height == 200)
    }

    @Test func base64SourceSplitBySlashes() throws {
        // imgproxy's documentation example: "http://example.com/images/curiosity.jpg" split in pieces.
        let url = try ProcessingURL(
            "/sig/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        #expect(url.source == "http://example.com/images/curiosity.jpg")
        #expect(url.extensionFormat == .png)
        #expect(url.options.resizingType == .fill && url.options.gravity == .attention && !url.options.enlarge)
    }

    @Test func percentEncodedPlainSourcesAreDecoded() throws {
        let url = try ProcessingURL("/insecure/w:10/plain/local:///a%20b/%2e%2e/c.jpg")
        #expect(url.source == "local:///a b/../c.jpg")
        #expect(url.extensionFormat == nil)
    }

    @Test func thePageOptionPicksATIFFPage() throws {
        // imgproxy's page (pg), from 0, carried into the request; 0 is the default.
        let second = try ProcessingURL("/s/w:100/pg:1/plain/local:///scan.tif").options
        let first = try ProcessingURL("/s/w:100/page:0/plain/local:///scan.tif").options
        #expect(second.page == 1 && first.page == 0)
        let loader = FileLoader(path: "/scan.tif")
        let request = try second.imageRequest(loader: loader, limits: ImageLimits())
        #expect(request.page == 1)
        #expect(try first.imageRequest(loader: loader, limits: ImageLimits()).page == 0)
        #expect(throws: RequestError.self) { try ProcessingURL("/s/pg:-1/plain/local:///scan.tif") }
        #expect(throws: RequestError.self) { try ProcessingURL("/s/pg:1000/plain/local:///scan.tif") }
    }

    @Test func optionsMapToTypedValues() throws {
        let url = try ProcessingURL(
            "/s/w:100/h:50/dpr:2/el:1/g:fp:0.25:0.75/c:0.5:0.5:no/rot:270/bg:ff0000/q:55/f:webp/cb:7/ra:linear/ar:1/sm:1/plain/local:///x.jpg"
        )
        let o = url.options
        #expect(o.width == 100 && o.height == 50 && o.dpr == 2 && o.enlarge)
        #expect(o.gravity == .focus(x: 0.25, y: 0.75))
        #expect(o.crop == ImageRequest.Crop(width: 0.5, height: 0.5, gravity: .north))
        #expect(o.rotation == 270 && o.quality == 55 && o.format == .webp && o.cacheBuster == "7" && o.fast)
        #expect(o.background == RGBColor(red: 255, green: 0, blue: 0))
        let request = try o.imageRequest(loader: FileLoader(path: "/x.jpg"), limits: ImageLimits())
        #expect(request.target == .box(PixelSize(width: 200, height: 100), fit: .inside))
        #expect(request.options.rotation == .left && request.options.allowUpscaling && request.options.mode == .fast)
    }

    /// `fl` mirrors after the rotation, folded into the one orientation applied with EXIF's; `z` (one factor or one
    /// per axis) goes to the plan, which multiplies the result once the size is met.
    @Test func flipsAndZoom() throws {
        func request(_ path: Substring) throws -> ImageRequest {
            try ProcessingURL(path).options.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits())
        }
        #expect(try request("/s/fl:1/plain/local:///x").options.rotation == .upMirrored)
        #expect(try request("/s/fl:0:1/plain/local:///x").options.rotation == .downMirrored)
        #expect(try request("/s/fl:t:t/plain/local:///x").options.rotation == .down)
        #expect(try request("/s/rot:90/fl:1/plain/local:///x").options.rotation == .right.followed(by: .upMirrored))
        #expect(try request("/s/fl:0/plain/local:///x").options.rotation == .up)
        let zoomed = try request("/s/w:100/z:1.5/plain/local:///x")
        #expect(zoomed.target == .box(PixelSize(width: 100, height: ThumbnailTarget.maxSide), fit: .inside))
        #expect(zoomed.options.zoom == (1.5, 1.5))
        let filled = try request("/s/rs:fill:100:50/dpr:2/z:1.5:2/plain/local:///x")
        #expect(
            filled.target == .box(PixelSize(width: 200, height: 100), fit: .fill) && filled.options.zoom == (1.5, 2))
        #expect(try request("/s/z:2/plain/local:///x").options.zoom == (2, 2))
        #expect(throws: RequestError.self) { try request("/s/w:10000/z:2/plain/local:///x") }
    }

    @Test func resizingTypesMapToFitsAndOneSideFits() throws {
        func target(_ path: Substring) throws -> ThumbnailTarget {
            try ProcessingURL(path).options.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits()).target
        }
        #expect(
            try target("/s/rs:fill:300:200/plain/local:///x") == .box(PixelSize(width: 300, height: 200), fit: .fill))
        #expect(
            try target("/s/rs:force:300:200/plain/local:///x")
                == .box(PixelSize(width: 300, height: 200), fit: .stretch))
        #expect(
            try target("/s/rs:force:300/plain/local:///x") == .box(PixelSize(width: 300, height: 0), fit: .stretch))
        #expect(
            try target("/s/rs:fill-down:300:200/plain/local:///x")
                == .box(PixelSize(width: 300, height: 200), fit: .cover))
        #expect(
            try target("/s/rs:fill:300:0/plain/local:///x")
                == .box(PixelSize(width: 300, height: ThumbnailTarget.maxSide), fit: .inside))
        #expect(
            try target("/s/h:80/plain/local:///x")
                == .box(PixelSize(width: ThumbnailTarget.maxSide, height: 80), fit: .inside))
        #expect(try target("/s/q:80/plain/local:///x") == .original)
        #expect(
            try target("/s/rs:auto:300:200/plain/local:///x") == .box(PixelSize(width: 300, height: 200), fit: .auto))
        #expect(
            try target("/s/rt:auto/w:300/plain/local:///x")
                == .box(PixelSize(width: 300, height: ThumbnailTarget.maxSide), fit: .inside))
    }

    /// `ex`/`exar` with gravity and offsets, `mw`/`mh`, `pd` in CSS shorthand, `bl`/`sh`/`pix`, and what dpr
    /// multiplies (sizes, offsets in pixels, padding, pixelation; not fractions or deviations).
    @Test func extendPaddingAndFiltersMapToFinishing() throws {
        func options(_ path: Substring) throws -> ThumbnailOptions {
            try ProcessingURL(path).options.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits()).options
        }
        let extended = try options("/s/rs:fit:100:50:0:1:so:0:4/dpr:2/plain/local:///x").finishing
        #expect(
            extended.extend
                == CanvasExtension(size: PixelSize(width: 200, height: 100), gravity: Gravity.south.offset(x: 0, y: 8)))
        let ex = try options("/s/w:100/h:80/ex:1:noea:0.1:3/plain/local:///x").finishing
        #expect(
            ex.extend
                == CanvasExtension(
                    size: PixelSize(width: 100, height: 80), gravity: Gravity.northEast.offset(x: 0.1, y: 3)))
        #expect(try options("/s/w:100/ex:0/plain/local:///x").finishing.extend == nil)
        let exar = try options("/s/rs:fit:16:9/exar:1:we/plain/local:///x").finishing
        #expect(exar.extendToAspectRatio == CanvasExtension(size: PixelSize(width: 16, height: 9), gravity: .west))
        #expect(try options("/s/mw:30/mh:40/dpr:2/plain/local:///x").minimumSize == PixelSize(width: 60, height: 80))
        for (pd, insets) in [
            ("10", EdgeInsets(top: 10, right: 10, bottom: 10, left: 10)),
            ("10:20", EdgeInsets(top: 10, right: 20, bottom: 10, left: 20)),
            ("10:20:30", EdgeInsets(top: 10, right: 20, bottom: 30, left: 20)),
            ("1:2:3:4", EdgeInsets(top: 1, right: 2, bottom: 3, left: 4)),
            ("1::3", EdgeInsets(top: 1, right: 1, bottom: 3, left: 1)),
        ] {
            #expect(try options(Substring("/s/pd:\(pd)/plain/local:///x")).finishing.padding == insets, "\(pd)")
        }
        let filters = try options("/s/bl:2.5/sh:0.7/pix:4/dpr:2/g:ce:12:0.25/bg:010203/plain/local:///x")
        #expect(filters.finishing.blurSigma == 2.5 && filters.finishing.sharpenSigma == 0.7)
        #expect(
            filters.finishing.pixelateSize == 8 && filters.finishing.background == RGBColor(red: 1, green: 2, blue: 3))
        #expect(filters.gravity == Gravity.centre.offset(x: 24, y: 0.25))
        #expect(try options("/s/w:10/plain/local:///x").finishing.isEmpty)
    }

    /// The metadata, colour, orientation and pass-through options map to the request and the response.
    @Test func metadataColourOrientationAndPassThrough() throws {
        let o = try ProcessingURL("/s/ar:0/sm:0/kcr:0/scp:0/eth:1/raw:1/skp:jpg:png/fq:webp:60:avif:0/plain/local:///x")
            .options
        #expect(
            !o.autoRotate && !o.stripMetadata && o.keepCopyright == false && !o.stripColorProfile && o.enforceThumbnail)
        #expect(o.raw && o.skipProcessing == [.jpeg, .png] && o.formatQuality == ["webp": 60])
        let request = try o.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits())
        #expect(!request.options.appliesEXIFOrientation && request.options.color == .keep)
        #expect(request.options.useEmbeddedThumbnail == true)
        #expect(status { try ProcessingURL("/s/skp:bogus/plain/local:///x") } == 404)
        #expect(status { try ProcessingURL("/s/fq:webp/plain/local:///x") } == 404)
        #expect(status { try ProcessingURL("/s/fq:webp:101/plain/local:///x") } == 404)
        // Security options only under rules that allow them; then they set this URL's limits.
        #expect(status { try ProcessingURL("/s/maf:3/plain/local:///x") } == 404)
        var rules = URLRules()
        rules.allowsSecurityOptions = true
        let limited = try ProcessingURL("/s/msr:2.5/msfs:1000/maf:3/mafr:0.5/plain/local:///x", rules: rules).options
            .imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits()).limits
        #expect(limited.maxPixels == 2_500_000 && limited.maxInputBytes == 1000 && limited.maxAnimationFrames == 3)
        #expect(limited.maxAnimationPixels == 1_500_000)
    }

    @Test func presetsExpandAndDefaultAppliesFirst() throws {
        let presets = ["default": "q:60/rs:fit:500:500", "thumb": "rs:fill:100:100/g:so"]
        let plain = try ProcessingURL("/s/plain/local:///x.jpg", presets: presets)
        #expect(plain.options.quality == 60 && plain.options.width == 500)
        let thumb = try ProcessingURL("/s/pr:thumb/plain/local:///x.jpg", presets: presets)
        #expect(
            thumb.options.resizingType == .fill && thumb.options.width == 100 && thumb.options.gravity == .south
                && thumb.options.quality == 60)
        #expect(status { try ProcessingURL("/s/pr:nope/plain/local:///x.jpg", presets: presets) } == 404)
    }

    /// imgproxy's readings: `exp:0` never expires; booleans are `1`, `t`, `true` in any case and anything else is
    /// false, not an error; `bg:` unsets a background set before it (by a preset, say).
    @Test func expiryBooleansAndBackgroundAsImgproxyReadsThem() throws {
        #expect(try ProcessingURL("/s/exp:0/plain/local:///x.jpg", now: 2000).options.expires == nil)
        for (text, value) in [("1", true), ("T", true), ("True", true), ("0", false), ("yes", false), ("x", false)] {
            let url = try ProcessingURL(Substring("/s/el:\(text)/plain/local:///x.jpg"))
            #expect(url.options.enlarge == value, "\(text)")
        }
        #expect(try ProcessingURL("/s/bg:ff0000/bg:/plain/local:///x.jpg").options.background == nil)
        #expect(try ProcessingURL("/s/bg:ff0000/plain/local:///x.jpg").options.background != nil)
    }

    @Test func errorsHaveStatusesAndMessages() {
        #expect(status { try ProcessingURL("/s/bogus:5/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/bl:101/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/pix:5000/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/pd:1:2:3:4:5/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/pd:-1/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/ex:1:sm/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/g:no:1:2:3/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/g:no:nan/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/w:abc/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/w:99999/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/rot:45/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/g:xx/plain/local:///x.jpg") } == 404)
        #expect(status { try ProcessingURL("/s/w:10/plain/") } == 404)
        #expect(status { try ProcessingURL("/s/w:10/enc/abcdef") } == 404)
        #expect(status { try ProcessingURL("/s/w:10/plain/local:///x.jpg@heic") } == 415)
        #expect(status { try ProcessingURL("/s/w:10/plain/local:///x.jpg@bogus") } == 404)
        // Output names come from the registry: every extension of a written format; 415 for any other known
        // image format, read (heic, ico, tiff) or only named (svg); 400 for the rest, listing what is written.
        for name in CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions) {
            #expect(
                (try? ProcessingURL("/s/w:10/plain/local:///x.jpg@\(name)"))?.extensionFormat?.fileExtensions
                    .contains(name) == true, "\(name)")
        }
        for name in ["heic", "ICO", "svg", "tif"] {
            #expect(status { try ProcessingURL("/s/f:\(name)/plain/local:///x.jpg") } == 415, "\(name)")
        }
        do {
            _ = try ProcessingURL("/s/w:10/plain/local:///x.jpg@bogus")
        } catch {
            #expect(error.message.contains("(Shrink writes jpg, png, webp, gif, avif and jxl)"), "\(error.message)")
        }
        #expect(status { try ProcessingURL("/s/exp:1000/plain/local:///x.jpg", now: 2000) } == 404)
        #expect(status { try ProcessingURL("/s/exp:3000/plain/local:///x.jpg", now: 2000) } == nil)
        #expect(status { try ProcessingURL("/justone") } == 404)
        #expect(
            status {
                try ProcessingURL("/s/w:16000/dpr:2/plain/local:///x").options.imageRequest(
                    loader: FileLoader(path: "/x"), limits: ImageLimits())
            } == 404)
    }

    private func status<T>(_ body: () throws -> T) -> Int? {
        do { _ = try body(); return nil } catch { return (error as? RequestError)?.status ?? -1 }
    }
}

/// imgproxy's option table (``ProcessingURL/imgproxyOptions``) against the parser, and the README's copy of it.
@Suite struct ImgproxyOptionTableTests {
    @Test func everyImgproxyOptionIsAnsweredAsTheTableSays() throws {
        var rules = URLRules(presets: ["default": "q:80"])
        rules.allowsSecurityOptions = true
        for option in ProcessingURL.imgproxyOptions {
            for name in option.names {
                let url = Substring("/s/\(name):\(option.sample)/plain/local:///x.jpg")
                let parsed = Result { () throws(RequestError) -> ProcessingURL in try ProcessingURL(url, rules: rules) }
                if option.accepted {
                    #expect(throws: Never.self, "\(name)") { try parsed.get() }
                } else {
                    #expect(throws: RequestError.self, "\(name)") { try parsed.get() }
                }
            }
        }
        #expect(ProcessingURL.imgproxyOptions.count >= 44)
    }

    @Test func theREADMEHoldsTheTableTheParserMakes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "<!-- imgproxy-options: made from ProcessingURL.imgproxyOptions -->\n", end = "\n<!-- end -->"
        let start = try #require(readme.range(of: begin)), stop = try #require(readme.range(of: end))
        let table = String(readme[start.upperBound..<stop.lowerBound])
        if table != ProcessingURL.optionsTable {
            let out = root.appendingPathComponent(".build/test-output/imgproxy-options.md")
            try? FileManager.default.createDirectory(
                at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
            try ProcessingURL.optionsTable.write(to: out, atomically: true, encoding: .utf8)
            Issue.record("README's imgproxy option table differs from the parser's: the current one is in \(out.path)")
        }
    }
}
