import Shrink
import ShrinkFuzzSupport

/// A JPEG thumbnail under small limits: the target, mode, strictness and pixel format (yuv420, rgba8, …)
/// come from the parameter bytes, the JPEG after them; the result is sometimes re-encoded.
enum JPEGThumbnailHarness {
    static let pixelFormats: [PixelFormatRequest] = [
        .memoryOptimized, .exactly(.yuv420), .exactly(.rgba8), .exactly(.nv12), .exactly(.gray8), .displayReady, .native,
    ]

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let encoding = input.byte()
        guard input.image.starts(with: [0xFF, 0xD8]),
              let source = try? ImageSource(bytes: input.image, name: "fuzz.jpg", limits: FuzzLimits.image),
              let image = try? source.image(request.target, options: request.options) else { return }
        precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        Reencoder.encode(image, choice: encoding)
    }
}
