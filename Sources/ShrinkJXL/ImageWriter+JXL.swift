import ShrinkCore

extension ImageWriter {
    /// JPEG XL through libjxl: a quality on JPEG's scale (butteraugli distance as cjxl maps it) or lossless, alpha,
    /// 16 bits from 16-bit pixels, libjxl's effort (the format option `effort`, 1–9, 3 by default), the ICC profile kept
    /// on request. An encode holds an RGB copy of YUV pixels (3 bytes a pixel at most), libjxl's encoder state, which
    /// grows with the pixel count (float planes of the frame), and the output; the per-pixel figure and the fixed part
    /// were measured (BENCHMARKS.md, "Figures behind the code").
    package static let jxl = ImageWriter(
        accepts: [.alpha, .sixteenBit],
        reads: [.quality, .lossless, .keepICCProfile],
        formatOptions: ["effort": ["3", "1", "2", "4", "5", "6", "7", "8", "9"]],
        make: { settings in
            JXLEncoder(
                options: JXLEncoder.Options(
                    quality: settings.quality, lossless: settings.lossless,
                    effort: settings.formatOptions["effort"].flatMap { Int($0) } ?? JXLEncoder.Options().effort,
                    keepICCProfile: settings.keepICCProfile))
        },
        makeDefault: { JXLEncoder() },
        predictedBytes: { size, _ in size.pixelCount * 44 + (8 << 20) })
}
