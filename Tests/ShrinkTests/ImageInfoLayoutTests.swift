import Testing
import Shrink
import ShrinkTestSupport

/// Each codec names its files' layout and where their orientation comes from (`info` and the gallery print these
/// words as the codec gives them).
@Suite struct ImageInfoLayoutTests {
    let photo = TestImages.pattern(width: 64, height: 48)

    @Test func jpegSaysBaselineOrProgressive() throws {
        let baseline = try ImageSource(bytes: try TestImages.jpeg(photo)).info
        let progressive = try ImageSource(bytes: try TestImages.jpeg(photo, progressive: true)).info
        #expect(baseline.layout == "baseline" && progressive.layout == "progressive")
        #expect(baseline.orientationSource == "EXIF")
    }

    @Test func encodedPNGAndWebPSayTheirs() throws {
        let png = try ImageSource(bytes: try PNGEncoder().encode(photo, metadata: ImageMetadata())).info
        #expect(png.layout == "non-interlaced" && png.orientationSource == "EXIF")
        let lossless = WebPEncoder(options: WebPEncoder.Options(lossless: true))
        let lossy = WebPEncoder(options: WebPEncoder.Options(quality: 80))
        #expect(
            try ImageSource(bytes: try lossless.encode(photo, metadata: ImageMetadata())).info.layout
                == "lossless (VP8L)")
        #expect(try ImageSource(bytes: try lossy.encode(photo, metadata: ImageMetadata())).info.layout == "lossy (VP8)")
    }
}
