import Shrink
import ShrinkFuzzSupport

/// A PNG thumbnail under small limits: the target, mode, strictness and pixel format (every format, rgba16
/// included, and every policy) come from the parameter bytes, the PNG after them; the result is sometimes
/// re-encoded.
enum PNGThumbnailHarness {
    static let pixelFormats: [PixelFormatRequest] =
        [.memoryOptimized, .highPrecision, .displayReady, .native] + PixelFormat.allCases.map { .exactly($0) }

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let encoding = input.byte()
        guard input.image.starts(with: [0x89, 0x50, 0x4E, 0x47]),
              let source = try? ImageSource(bytes: input.image, name: "fuzz.png", limits: FuzzLimits.image),
              let image = try? source.image(request.target, options: request.options) else { return }
        precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        Reencoder.encode(image, choice: encoding)
    }
}
