import Shrink
import ShrinkFuzzSupport

/// A WebP thumbnail (still, animated, lossy with and without alpha, lossless) through ``ThumbnailHarness``, in
/// every pixel format; re-encoding includes WebP.
enum WebPThumbnailHarness {
    static func fuzz(_ bytes: [UInt8]) {
        ThumbnailHarness.fuzz(bytes, name: "fuzz.webp", pixelFormats: ThumbnailHarness.everyPixelFormat) {
            $0.starts(with: Array("RIFF".utf8))
        }
    }
}
