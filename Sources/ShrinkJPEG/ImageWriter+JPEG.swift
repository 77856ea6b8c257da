import ShrinkCore

extension ImageWriter {
    /// JPEG through libjpeg-turbo: quality, 4:2:0 (from YUV planes as they are) or 4:4:4, progressive scans,
    /// optimised Huffman tables, ICC and EXIF kept on request; alpha is flattened onto the background.
    /// An encode holds a converted copy of the pixels (4 bytes a pixel at most), the output (at most a byte a pixel at
    /// any quality), libjpeg's buffer of every coefficient when it writes progressive scans or optimises its tables (3
    /// bytes a pixel at 4:2:0), and a fixed 1 MiB allowance for libjpeg's state, not yet measured (BENCHMARKS.md,
    /// "Figures behind the code").
    package static let jpeg = ImageWriter(
        accepts: [.yuvPlanes],
        reads: [.quality, .chroma444, .progressive, .optimizeCoding, .background, .keepICCProfile, .keepEXIF],
        make: { settings in
            var options = JPEGEncoder.Options(
                quality: settings.quality, chroma444: settings.chroma444, progressive: settings.progressive,
                optimizeHuffmanTables: settings.optimizeCoding)
            options.keepICCProfile = settings.keepICCProfile
            options.keepEXIF = settings.keepEXIF
            options.background = (settings.background.red, settings.background.green, settings.background.blue)
            return JPEGEncoder(options: options)
        },
        makeDefault: { JPEGEncoder() },
        predictedBytes: { size, settings in
            let pixels = size.pixelCount
            let coefficients = settings.progressive || settings.optimizeCoding ? pixels * 3 : 0
            return pixels * 4 + pixels + coefficients + (1 << 20)
        })
}
