import Shrink
import ShrinkFuzzSupport

/// A GIF thumbnail under small limits: the target, mode, strictness and pixel format come from the parameter
/// bytes, the GIF after them; the header is read (frame count, loop count, ICC) and the result is sometimes
/// re-encoded.
enum GIFThumbnailHarness {
    static let pixelFormats: [PixelFormatRequest] =
        [.memoryOptimized, .highPrecision, .displayReady, .native] + PixelFormat.allCases.map { .exactly($0) }

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let encoding = input.byte()
        guard input.image.starts(with: Array("GIF8".utf8)),
              let source = try? ImageSource(bytes: input.image, name: "fuzz.gif", limits: FuzzLimits.image) else { return }
        precondition(source.info.frameCount >= 1, "a GIF opened without a frame")
        _ = try? source.decoder.metadata()
        guard let image = try? source.image(request.target, options: request.options) else { return }
        precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        Reencoder.encode(image, choice: encoding)
    }
}
