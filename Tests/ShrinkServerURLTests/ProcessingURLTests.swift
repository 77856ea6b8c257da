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
        #expect(url.options.resizingType == .fill && url.options.gravity == .centre && !url.options.enlarge)
    }

    @Test func percentEncodedPlainSourcesAreDecoded() throws {
        let url = try ProcessingURL("/insecure/w:10/plain/local:///a%20b/%2e%2e/c.jpg")
        #expect(url.source == "local:///a b/../c.jpg")
        #expect(url.extensionFormat == nil)
    }

    @Test func optionsMapToTypedValues() throws {
        let url = try ProcessingURL(
            "/s/w:100/h:50/dpr:2/el:1/g:fp:0.25:0.75/c:0.5:0.5:no/rot:270/bg:ff0000/q:55/f:webp/cb:7/ra:linear/ar:1/sm:1/plain/local:///x.jpg"
        )
        let o = url.options
        #expect(o.width == 100 && o.height == 50 && o.dpr == 2 && o.enlarge)
        #expect(o.gravity == Gravity(x: 0.25, y: 0.75))
        #expect(o.crop == ImageRequest.Crop(width: 0.5, height: 0.5, gravity: .north))
        #expect(o.rotation == 270 && o.quality == 55 && o.format == .webp && o.cacheBuster == "7" && o.fast)
        #expect(o.background == RGBColor(red: 255, green: 0, blue: 0))
        let request = try o.imageRequest(loader: FileLoader(path: "/x.jpg"), limits: ImageLimits())
        #expect(request.target == .box(PixelSize(width: 200, height: 100), fit: .inside))
        #expect(request.options.rotation == .left && request.options.allowUpscaling && request.options.mode == .fast)
    }

    /// `fl` mirrors after the rotation, folded into the one orientation applied with EXIF's; `z` multiplies the size
    /// asked for, as `dpr` does; different zooms across and down (stretching) and a zoom of the source's size are 400s.
    @Test func flipsAndZoom() throws {
        func request(_ path: Substring) throws -> ImageRequest {
            try ProcessingURL(path).options.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits())
        }
        #expect(try request("/s/fl:1/plain/local:///x").options.rotation == .upMirrored)
        #expect(try request("/s/fl:0:1/plain/local:///x").options.rotation == .downMirrored)
        #expect(try request("/s/fl:t:t/plain/local:///x").options.rotation == .down)
        #expect(try request("/s/rot:90/fl:1/plain/local:///x").options.rotation == .right.followed(by: .upMirrored))
        #expect(try request("/s/fl:0/plain/local:///x").options.rotation == .up)
        #expect(
            try request("/s/w:100/z:1.5/plain/local:///x").target
                == .box(PixelSize(width: 150, height: ThumbnailTarget.maxSide), fit: .inside))
        #expect(
            try request("/s/rs:fill:100:50/dpr:2/z:1.5:1.5/plain/local:///x").target
                == .box(PixelSize(width: 300, height: 150), fit: .cover))
        #expect(throws: RequestError.self) { try request("/s/w:100/z:1.5:2/plain/local:///x") }
        #expect(throws: RequestError.self) { try request("/s/z:2/plain/local:///x") }
        #expect(throws: RequestError.self) { try request("/s/w:10000/z:2/plain/local:///x") }
    }

    @Test func fillBecomesCoverAndOneSideFits() throws {
        func target(_ path: Substring) throws -> ThumbnailTarget {
            try ProcessingURL(path).options.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits()).target
        }
        #expect(
            try target("/s/rs:fill:300:200/plain/local:///x") == .box(PixelSize(width: 300, height: 200), fit: .cover))
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

    @Test func presetsExpandAndDefaultAppliesFirst() throws {
        let presets = ["default": "q:60/rs:fit:500:500", "thumb": "rs:fill:100:100/g:so"]
        let plain = try ProcessingURL("/s/plain/local:///x.jpg", presets: presets)
        #expect(plain.options.quality == 60 && plain.options.width == 500)
        let thumb = try ProcessingURL("/s/pr:thumb/plain/local:///x.jpg", presets: presets)
        #expect(
            thumb.options.resizingType == .fill && thumb.options.width == 100 && thumb.options.gravity == .south
                && thumb.options.quality == 60)
        #expect(status { try ProcessingURL("/s/pr:nope/plain/local:///x.jpg", presets: presets) } == 400)
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
        #expect(status { try ProcessingURL("/s/blur:5/plain/local:///x.jpg") } == 400)
        #expect(status { try ProcessingURL("/s/w:abc/plain/local:///x.jpg") } == 400)
        #expect(status { try ProcessingURL("/s/w:99999/plain/local:///x.jpg") } == 400)
        #expect(status { try ProcessingURL("/s/rot:45/plain/local:///x.jpg") } == 400)
        #expect(status { try ProcessingURL("/s/ar:0/plain/local:///x.jpg") } == 400)
        #expect(status { try ProcessingURL("/s/g:xx/plain/local:///x.jpg") } == 400)
        #expect(status { try ProcessingURL("/s/w:10/plain/") } == 400)
        #expect(status { try ProcessingURL("/s/w:10/enc/abcdef") } == 400)
        #expect(status { try ProcessingURL("/s/w:10/plain/local:///x.jpg@heic") } == 415)
        #expect(status { try ProcessingURL("/s/w:10/plain/local:///x.jpg@bogus") } == 400)
        // Output names come from the registry: every extension of a written format; 415 for any other known
        // image format, read (heic) or only named (jxl, ico, svg, tiff); 400 for the rest, listing what is written.
        for name in CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions) {
            #expect(
                (try? ProcessingURL("/s/w:10/plain/local:///x.jpg@\(name)"))?.extensionFormat?.fileExtensions
                    .contains(name) == true, "\(name)")
        }
        for name in ["heic", "jxl", "ICO", "svg", "tif"] {
            #expect(status { try ProcessingURL("/s/f:\(name)/plain/local:///x.jpg") } == 415, "\(name)")
        }
        do {
            _ = try ProcessingURL("/s/w:10/plain/local:///x.jpg@bogus")
        } catch {
            #expect(error.message.contains("(Shrink writes jpg, png, webp, gif and avif)"), "\(error.message)")
        }
        #expect(status { try ProcessingURL("/s/exp:1000/plain/local:///x.jpg", now: 2000) } == 404)
        #expect(status { try ProcessingURL("/s/exp:3000/plain/local:///x.jpg", now: 2000) } == nil)
        #expect(status { try ProcessingURL("/justone") } == 404)
        #expect(
            status {
                try ProcessingURL("/s/rs:force:10:10/plain/local:///x").options.imageRequest(
                    loader: FileLoader(path: "/x"), limits: ImageLimits())
            } == 400)
        #expect(
            status {
                try ProcessingURL("/s/w:16000/dpr:2/plain/local:///x").options.imageRequest(
                    loader: FileLoader(path: "/x"), limits: ImageLimits())
            } == 400)
    }

    private func status<T>(_ body: () throws -> T) -> Int? {
        do { _ = try body(); return nil } catch { return (error as? RequestError)?.status ?? -1 }
    }
}
