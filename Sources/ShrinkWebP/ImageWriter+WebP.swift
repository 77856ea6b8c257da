import ShrinkCore

extension ImageWriter {
    /// WebP through libwebp: lossy at a quality or lossless, alpha kept, animations (libwebp's animation encoder), ICC
    /// and EXIF kept on request. An encode holds
    /// a converted copy of the pixels (4 bytes a pixel), the output (at most a byte a pixel) and a fixed 1 MiB
    /// allowance for libwebp's state, not yet measured (BENCHMARKS.md, "Figures behind the code").
    package static let webp = ImageWriter(
        accepts: [.alpha, .animation],
        reads: [.quality, .lossless, .keepICCProfile, .keepEXIF],
        make: { settings in
            WebPEncoder(
                options: WebPEncoder.Options(
                    quality: settings.quality, lossless: settings.lossless, keepICCProfile: settings.keepICCProfile,
                    keepEXIF: settings.keepEXIF))
        },
        makeDefault: { WebPEncoder() },
        predictedBytes: { size, _ in size.pixelCount * 5 + (1 << 20) })
}
