import ShrinkCore

extension ImageWriter {
    /// AVIF through libavif's aom encoder: a quality on JPEG's scale or lossless, YUV 4:2:0 planes as they are,
    /// alpha, 10 bits from 16-bit pixels, aom's speed (the format option `speed`, 0–9, 8 by default), ICC and EXIF kept
    /// on request. An encode holds a YUV copy of RGB pixels (3 bytes a pixel at most, twice that at 10 bits, plus
    /// alpha), aom's encoder state, which grows with the pixel count, and the output; the per-pixel figure and the fixed
    /// part were measured (BENCHMARKS.md, "Figures behind the code").
    package static let avif = ImageWriter(
        accepts: [.yuvPlanes, .alpha, .sixteenBit],
        reads: [.quality, .lossless, .keepICCProfile, .keepEXIF],
        formatOptions: ["speed": ["8", "0", "1", "2", "3", "4", "5", "6", "7", "9"]],
        make: { settings in
            AVIFEncoder(
                options: AVIFEncoder.Options(
                    quality: settings.quality, lossless: settings.lossless,
                    speed: settings.formatOptions["speed"].flatMap { Int($0) } ?? AVIFEncoder.Options().speed,
                    keepICCProfile: settings.keepICCProfile, keepEXIF: settings.keepEXIF))
        },
        makeDefault: { AVIFEncoder() },
        predictedBytes: { size, _ in size.pixelCount * 16 + (8 << 20) })
}
