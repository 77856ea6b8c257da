import Shrink
import ShrinkFuzzSupport

/// A HEIC thumbnail (single images, grids of tiles, alpha; libde265; AVIF too when the input is one) through ``ThumbnailHarness``, in every
/// pixel format.
enum HEIFThumbnailHarness {
    static func fuzz(_ bytes: [UInt8]) {
        ThumbnailHarness.fuzz(bytes, name: "fuzz.heic", pixelFormats: ThumbnailHarness.everyPixelFormat) {
            $0.count > 12 && Array($0[4..<8]) == Array("ftyp".utf8)
        }
    }
}
