import Shrink
import ShrinkFuzzSupport

/// An AVIF thumbnail (single AV1 images, grids, alpha, deep samples; dav1d) through ``ThumbnailHarness``, in
/// every pixel format. Seeded with AVIF files, so that the fuzzer's time goes to the AV1 route.
enum AVIFThumbnailHarness {
    static func fuzz(_ bytes: [UInt8]) {
        ThumbnailHarness.fuzz(bytes, name: "fuzz.avif", pixelFormats: ThumbnailHarness.everyPixelFormat) {
            $0.count > 12 && Array($0[4..<8]) == Array("ftyp".utf8)
        }
    }
}
