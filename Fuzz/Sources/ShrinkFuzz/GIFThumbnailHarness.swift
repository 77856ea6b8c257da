@_spi(Fuzzing) import Shrink
import ShrinkFuzzSupport

/// A GIF thumbnail under small limits through ``ThumbnailHarness``: the header is read first (frame count,
/// loop count, ICC), then the first frame in every pixel format.
enum GIFThumbnailHarness {
    static func fuzz(_ bytes: [UInt8]) {
        ThumbnailHarness.fuzz(
            bytes, name: "fuzz.gif", pixelFormats: ThumbnailHarness.everyPixelFormat,
            accepts: { $0.starts(with: Array("GIF8".utf8)) }
        ) { source in
            precondition(source.info.frameCount >= 1, "a GIF opened without a frame")
            SourceFuzzing.readMetadata(source)
        }
    }
}
