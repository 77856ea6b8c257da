import Shrink
import ShrinkFuzzSupport

/// A JPEG thumbnail under small limits through ``ThumbnailHarness``, in the formats JPEG routes differ by
/// (yuv420 and nv12 planes, rgba8, gray8, display, native).
enum JPEGThumbnailHarness {
    static let pixelFormats: [PixelFormatRequest] = [
        .memoryOptimized, .exactly(.yuv420), .exactly(.rgba8), .exactly(.nv12), .exactly(.gray8), .displayReady,
        .native,
    ]

    static func fuzz(_ bytes: [UInt8]) {
        ThumbnailHarness.fuzz(bytes, name: "fuzz.jpg", pixelFormats: pixelFormats) { $0.starts(with: [0xFF, 0xD8]) }
    }
}
