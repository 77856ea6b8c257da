import Shrink
import ShrinkFuzzSupport

/// A HEIC thumbnail under small limits: the target, mode, strictness and pixel format come from the parameter
/// bytes, the HEIC after them (single images, grids of tiles, alpha) through libde265; the planned route is
/// checked against what ran, and the result is sometimes re-encoded.
enum HEIFThumbnailHarness {
    static let pixelFormats: [PixelFormatRequest] =
        [.memoryOptimized, .displayReady, .native] + PixelFormat.allCases.map { .exactly($0) }

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let encoding = input.byte()
        guard input.image.count > 12 && Array(input.image[4..<8]) == Array("ftyp".utf8),
              let source = try? ImageSource(bytes: input.image, name: "fuzz.heic", limits: FuzzLimits.image),
              let image = try? source.image(request.target, options: request.options) else { return }
        precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        let format = request.options.pixelFormat.resolve(for: source.info, native: source.decoder.outputFormat)
        precondition(image.decodePath == source.decodePath(for: image.plan, format: format),
                     "ran \(String(describing: image.decodePath)), planned another route")
        Reencoder.encode(image, choice: encoding)
    }
}
