import ShrinkCore

extension ImageWriter {
    /// PNG through libspng: the pixels as they are (alpha, 16 bits), a deflate level, a bit depth, scanline filters
    /// (the format option `filter`), ICC and EXIF kept on request. An encode holds a converted copy of the pixels (4
    /// bytes a pixel at most), the output (bounded by the raw size) and a fixed 1 MiB allowance for libspng's and
    /// zlib's state, not yet measured (BENCHMARKS.md, "Figures behind the code").
    package static let png = ImageWriter(
        accepts: [.alpha, .sixteenBit],
        reads: [.compressionLevel, .bitDepth, .keepICCProfile, .keepEXIF],
        formatOptions: ["filter": PNGEncoder.Filters.allCases.map(\.rawValue)],
        make: { settings in
            let defaults = PNGEncoder.Options()
            return PNGEncoder(
                options: PNGEncoder.Options(
                    compressionLevel: settings.compressionLevel ?? defaults.compressionLevel,
                    filters: settings.formatOptions["filter"].flatMap(PNGEncoder.Filters.init(rawValue:))
                        ?? defaults.filters,
                    bitDepth: settings.bitDepth, keepICCProfile: settings.keepICCProfile, keepEXIF: settings.keepEXIF))
        },
        makeDefault: { PNGEncoder() },
        predictedBytes: { size, _ in size.pixelCount * 8 + (1 << 20) })
}
