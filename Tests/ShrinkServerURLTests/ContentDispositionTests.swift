import Shrink
import Testing

@testable import ShrinkServerURL

/// `fn` and `att` as imgproxy reads them, and the `Content-Disposition` header they make: the source's name or the
/// URL's, the result's extension, quotes escaped, a UTF-8 `filename*` for other names, nothing unprintable.
@Suite struct ContentDispositionTests {
    @Test func headerFromTheSourceOrTheGivenName() {
        #expect(
            ContentDisposition.header(filename: nil, source: "local:///dir/a b.jpg", format: .png, attachment: false)
                == "inline; filename=\"a b.png\"")
        #expect(
            ContentDisposition.header(
                filename: nil, source: "https://example.com/img/x.tar.gz?v=1#top", format: .webp, attachment: true)
                == "attachment; filename=\"x.tar.webp\"")
        #expect(
            ContentDisposition.header(
                filename: "say \"hi\"\\", source: "local:///a.jpg", format: .jpeg, attachment: false)
                == "inline; filename=\"say \\\"hi\\\"\\\\.jpg\"")
        #expect(
            ContentDisposition.header(filename: "café", source: "local:///a.jpg", format: .avif, attachment: false)
                == "inline; filename=\"caf_.avif\"; filename*=UTF-8''caf%C3%A9.avif")
        #expect(
            ContentDisposition.header(filename: nil, source: "https://example.com", format: .gif, attachment: false)
                == "inline; filename=\"example.gif\"")
        #expect(
            ContentDisposition.stem(of: "local:///") == "image" && ContentDisposition.stem(of: "a/.hidden") == "image")
    }

    @Test func filenameAndAttachmentOptions() throws {
        let plain = try ProcessingURL("/s/fn:my%20pic/att:1/plain/local:///a.jpg")
        #expect(plain.options.filename == "my pic" && plain.options.attachment)
        let encoded = try ProcessingURL("/s/fn:Y2Fmw6k:1/plain/local:///a.jpg")
        #expect(encoded.options.filename == "café" && !encoded.options.attachment)
        #expect(try ProcessingURL("/s/att:no/plain/local:///a.jpg").options.attachment == false)
        for bad in [
            "/s/fn:a%0Ab/plain/local:///a.jpg", "/s/fn:!!!:1/plain/local:///a.jpg", "/s/fn:a:1:2/plain/local:///a.jpg",
        ] {
            #expect(throws: RequestError.self, "\(bad)") { try ProcessingURL(Substring(bad)) }
        }
    }
}
