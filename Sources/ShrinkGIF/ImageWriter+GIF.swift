import ShrinkCore

extension ImageWriter {
    /// GIF through cgif, quantised by Shrink (``GIFEncoder``): transparency kept as GIF keeps it (a pixel shown or
    /// not), animations, dithering as the format option `dither` says (`auto`: stills only). An encode holds an rgba8
    /// copy of other pixels (4 bytes a pixel), indices and cgif's frames (4 bytes a pixel in all), the output (at most
    /// about a byte and a half a pixel) and the quantiser's tables (1 MiB, fixed).
    package static let gif = ImageWriter(
        accepts: [.alpha, .animation],
        reads: [],
        formatOptions: ["dither": GIFEncoder.Options.Dithering.allCases.map(\.rawValue)],
        make: { settings in
            GIFEncoder(
                options: GIFEncoder.Options(
                    dithering: settings.formatOptions["dither"].flatMap(GIFEncoder.Options.Dithering.init(rawValue:))
                        ?? .auto))
        },
        makeDefault: { GIFEncoder() },
        predictedBytes: { size, _ in size.pixelCount * 10 + (1 << 20) })
}
