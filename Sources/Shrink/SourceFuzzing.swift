import ShrinkCore

/// What `Fuzz/`'s harnesses check inside a source, as entry points: outside this package only through
/// `@_spi(Fuzzing)`, so the decoder, routes and predictions stay `package`.
@_spi(Fuzzing) public enum SourceFuzzing {
    /// Everything a header read leads to without decoding: the metadata (ICC profile, EXIF, oriented
    /// upright), the decoder's working memory, and for three targets the plan, its regions, and the route
    /// and predicted peak in two pixel formats.
    public static func inspect(_ source: ImageSource) {
        if let metadata = try? source.decoder.metadata() {
            _ = metadata.orientedUpright
        }
        _ = source.decoderWorkingBytes
        for target in [
            ThumbnailTarget.maxPixelSize(256), .prescale(8), .box(PixelSize(width: 64, height: 64), fit: .cover),
        ] {
            guard let plan = try? source.plan(target) else { continue }
            _ = (plan.decodedRegion, plan.decodingWindow)
            for format in [PixelFormat.yuv420, .rgba8] {
                let chosen = source.decodePlan(plan, options: ThumbnailOptions(pixelFormat: .exactly(format)))
                _ = (chosen.predictedPeakBytes, chosen.route.path)
            }
        }
    }

    /// The metadata the decoder reads (a GIF's ICC profile and comments), with its errors swallowed.
    public static func readMetadata(_ source: ImageSource) {
        _ = try? source.decoder.metadata()
    }

    /// Traps unless `image`, decoded from `source` under `options`, came out of the route planned for it (an
    /// embedded thumbnail stands in for the image by design) at the planned size.
    public static func checkRoute(of image: DecodedImage, from source: ImageSource, options: ThumbnailOptions) {
        precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        guard image.decodePath != .embeddedThumbnail else { return }
        precondition(
            image.decodePath == source.decodePlan(image.plan, options: options).route.path,
            "ran \(String(describing: image.decodePath)), planned another route")
    }
}
