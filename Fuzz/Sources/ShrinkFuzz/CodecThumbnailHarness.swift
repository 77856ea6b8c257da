@_spi(Fuzzing) import Shrink
import ShrinkFuzzSupport

/// One thumbnail harness per codec of the registry (`fuzz-thumbnail-FORMAT`, made from
/// ``CodecRegistry/standard`` by `main.swift`): an input its codec recognises goes through ``ThumbnailHarness``
/// in every pixel format, its header's metadata read first (ICC profiles, EXIF, a GIF's comments), and is
/// sometimes re-encoded. A codec added to the registry gets its harness without a line here.
struct CodecThumbnailHarness {
    let codec: Codec

    /// The harness's name: `fuzz-thumbnail-` and the format's name.
    var name: String { "fuzz-thumbnail-\(codec.format.name)" }

    func fuzz(_ bytes: [UInt8]) {
        let codec = codec
        ThumbnailHarness.fuzz(
            bytes, name: "fuzz.\(codec.format.fileExtension)", pixelFormats: ThumbnailHarness.everyPixelFormat,
            accepts: { image in image.withUnsafeBytes { codec.sniff($0) } }
        ) { source in
            precondition(source.info.frameCount >= 1, "a file opened without a frame")
            SourceFuzzing.readMetadata(source)
        }
    }
}
