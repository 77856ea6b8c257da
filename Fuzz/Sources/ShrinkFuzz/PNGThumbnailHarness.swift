import Shrink
import ShrinkFuzzSupport

/// A PNG thumbnail under small limits through ``ThumbnailHarness``: every pixel format (rgba16 included) and
/// every policy.
enum PNGThumbnailHarness {
    static func fuzz(_ bytes: [UInt8]) {
        ThumbnailHarness.fuzz(bytes, name: "fuzz.png", pixelFormats: ThumbnailHarness.everyPixelFormat) {
            $0.starts(with: [0x89, 0x50, 0x4E, 0x47])
        }
    }
}
