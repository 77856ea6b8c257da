@_spi(Fuzzing) import Shrink

/// The body every format's thumbnail harness shares: a request from the parameter bytes (target, mode,
/// strictness, one of the harness's pixel formats), then the image after them — when `accepts` its bytes —
/// opened under ``FuzzLimits`` and decoded — an animation frame by frame too. The result must have the planned size
/// and must have come out of the route planned for it (an EXIF thumbnail stands in for the image by design); it is
/// sometimes re-encoded, an animation by an animated writer.
public enum ThumbnailHarness {
    /// Every policy and every exact format (rgba16 included).
    public static let everyPixelFormat: [PixelFormatRequest] =
        [.memoryOptimized, .highPrecision, .displayReady, .native] + PixelFormat.allCases.map { .exactly($0) }

    /// Runs one input. `inspect` sees the opened source first (header reads a format wants exercised).
    public static func fuzz(
        _ bytes: [UInt8], name: String, pixelFormats: [PixelFormatRequest], accepts: ([UInt8]) -> Bool,
        inspect: (ImageSource) -> Void = { _ in }
    ) {
        var input = FuzzInput(bytes)
        let request = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let encoding = input.byte()
        guard accepts(input.image),
            let source = try? ImageSource(bytes: input.image, name: name, limits: FuzzLimits.image)
        else { return }
        inspect(source)
        // An animation: every frame composited and resampled, sometimes written by an animated writer.
        if let frames = try? source.animation(request.target, options: request.options) {
            Reencoder.encode(frames, choice: encoding)
        }
        guard let image = try? source.image(request.target, options: request.options) else { return }
        SourceFuzzing.checkRoute(of: image, from: source, options: request.options)
        Reencoder.encode(image, choice: encoding)
    }
}
