import Shrink
import ShrinkFuzzSupport

/// A WebP thumbnail under small limits: the target, mode, strictness and pixel format come from the parameter
/// bytes, the WebP after them (still, animated, lossy with and without alpha, lossless); the planned route is
/// checked against what ran, and the result is sometimes re-encoded (WebP included).
enum WebPThumbnailHarness {
    static let pixelFormats: [PixelFormatRequest] =
        [.memoryOptimized, .displayReady, .native] + PixelFormat.allCases.map { .exactly($0) }

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let encoding = input.byte()
        guard input.image.starts(with: Array("RIFF".utf8)),
              let source = try? ImageSource(bytes: input.image, name: "fuzz.webp", limits: FuzzLimits.image),
              let image = try? source.image(request.target, options: request.options) else { return }
        precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        let format = request.options.pixelFormat.resolve(for: source.info, native: source.decoder.outputFormat)
        precondition(image.decodePath == source.decodePath(for: image.plan, format: format),
                     "ran \(String(describing: image.decodePath)), planned another route")
        Reencoder.encode(image, choice: encoding)
    }
}
