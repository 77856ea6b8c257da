import Foundation
import Shrink
import Testing
@testable import ShrinkServerURL

/// thumbor's URLs: told apart from imgproxy's by shape, read into the same options, signed with HMAC-SHA1.
@Suite struct ThumborURLTests {
    @Test func theDialectIsToldApartByShape() {
        let encoded = SigningKeys.base64url(Array("local:///photo.jpg".utf8))
        for thumbor in [
            "/unsafe/300x200/photo.jpg", "/unsafe/fit-in/300x200/photo.jpg", "/unsafe/photo.jpg",
            "/unsafe/-0x-0/a/b.png", "/abc=/smart/photo.jpg", "/unsafe/filters:quality(50)/x.jpg",
            "/unsafe/10x20:30x40/x.jpg", "/unsafe/trim/x.jpg", "/unsafe/left/top/x.jpg",
        ] {
            #expect(ThumborURL.recognizes(Substring(thumbor)), "\(thumbor)")
        }
        for imgproxy in [
            "/insecure/rs:fit:300:200/plain/local:///photo.jpg", "/unsafe/w:200/plain/local:///photo.jpg",
            "/unsafe/plain/local:///photo.jpg", "/_/\(encoded).png", "/insecure/\(encoded)", "/sig/enc/abc",
        ] {
            #expect(!ThumborURL.recognizes(Substring(imgproxy)), "\(imgproxy)")
        }
        var rules = URLRules(presets: ["thumb": "w:10"])
        rules.onlyPresets = true
        #expect(!ThumborURL.recognizes("/unsafe/thumb/\(encoded)", rules: rules))
    }

    @Test func sizesFitsAlignmentsAndFiltersMapToOptions() throws {
        func request(_ path: Substring) throws -> ImageRequest {
            try ThumborURL.parse(path).options.imageRequest(loader: FileLoader(path: "/x"), limits: ImageLimits())
        }
        let crop = try ThumborURL.parse("/unsafe/300x200/photo.jpg")
        #expect(
            crop.source == "local:///photo.jpg" && crop.signedPath == "300x200/photo.jpg" && crop.dialect == .thumbor)
        let cover = try request("/unsafe/300x200/photo.jpg")
        #expect(cover.target == .box(PixelSize(width: 300, height: 200), fit: .fill) && cover.options.allowUpscaling)
        let fit = try request("/unsafe/fit-in/300x200/photo.jpg")
        #expect(fit.target == .box(PixelSize(width: 300, height: 200), fit: .inside) && !fit.options.allowUpscaling)
        #expect(
            try request("/unsafe/adaptive-fit-in/300x200/p.jpg").target
                == .box(PixelSize(width: 300, height: 200), fit: .insideEitherWay))
        #expect(
            try request("/unsafe/full-fit-in/300x200/p.jpg").target
                == .box(PixelSize(width: 300, height: 200), fit: .outside))
        let flipped = try request("/unsafe/-300x-200/p.jpg")
        #expect(flipped.options.rotation == .down) // both mirrors: a half turn
        let aligned = try request("/unsafe/10x20:110x220/300x200/left/bottom/p.jpg")
        #expect(aligned.region == PixelRect(x: 10, y: 20, width: 100, height: 200))
        #expect(aligned.options.gravity == Gravity(x: 0, y: 1))
        #expect(try request("/unsafe/300x200/smart/p.jpg").options.gravity == .attention)
        let filtered = try ThumborURL.parse(
            "/unsafe/fit-in/300x200/filters:format(webp):quality(70):fill(white):grayscale():blur(2):rotate(90):upscale():focal(10x10:30x50):proportion(0.5):max_bytes(5000)/http%3A%2F%2Fexample.com%2Fa.jpg"
        )
        #expect(filtered.source == "http://example.com/a.jpg" && filtered.extensionFormat == .webp)
        let o = filtered.options
        #expect(o.quality == 70 && o.background == RGBColor(red: 255, green: 255, blue: 255) && o.extend)
        #expect(o.grayscale && o.blur == 2 && o.rotation == 90 && o.enlarge && o.zoom == 0.5 && o.maxBytes == 5000)
        #expect(o.gravity == .focus(pixelX: 20, pixelY: 30))
        for bad in [
            "/unsafe/300x200/filters:sepia()/p.jpg", "/unsafe/filters:quality(500)/p.jpg", "/unsafe/meta/p.jpg",
            "/unsafe/30x40:10x20/p.jpg", "/unsafe/origx100/p.jpg",
            "/unsafe/filters:format(bmp)/p.jpg",
            "/unsafe/300x200/",
        ] {
            #expect(throws: RequestError.self, "\(bad)") { try ThumborURL.parse(Substring(bad)) }
        }
    }

    @Test func signaturesAreThumborsHMACSHA1() {
        let key = Array("my-security-key".utf8), path: Substring = "fit-in/300x200/photo.jpg"
        let signature = ThumborURL.sign(String(path), key: key)
        #expect(signature.count == 28 && signature.hasSuffix("="))
        #expect(ThumborURL.verify(signature: Substring(signature), path: path, key: key, allowsUnsafe: false))
        // Only libthumbor's spelling (padded), as thumbor compares the strings: not the same bytes unpadded.
        #expect(
            !ThumborURL.verify(signature: Substring(signature.dropLast()), path: path, key: key, allowsUnsafe: false))
        #expect(
            !ThumborURL.verify(
                signature: Substring(signature), path: "fit-in/300x201/photo.jpg", key: key, allowsUnsafe: false))
        #expect(
            !ThumborURL.verify(
                signature: Substring(signature), path: path, key: Array("other".utf8), allowsUnsafe: true))
        #expect(ThumborURL.verify(signature: "unsafe", path: path, key: key, allowsUnsafe: true))
        #expect(!ThumborURL.verify(signature: "unsafe", path: path, key: nil, allowsUnsafe: false))
        #expect(!ThumborURL.verify(signature: Substring(signature), path: path, key: nil, allowsUnsafe: true))
    }
}
