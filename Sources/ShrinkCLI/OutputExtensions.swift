import ArgumentParser
import Shrink

/// The output file extensions the registered encoders write, for help and error text.
enum OutputExtensions {
    /// `.jpg, .jpeg, … or .png`.
    static var list: String {
        let all = CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions).map { "." + $0 }
        return all.listed(conjunction: "or")
    }

    /// `jpg, png or webp`: each writable format's own extension, what `--format` takes.
    static var formatNames: String {
        CodecRegistry.standard.writableFormats.map(\.fileExtension).listed(conjunction: "or")
    }

    /// `JPEG, PNG, … and AVIF`: the formats the registry reads.
    static var readableNames: String {
        CodecRegistry.standard.readableFormats.map { $0.name.uppercased() }.listed()
    }

    /// `JPEG, WebP and AVIF`: the writable formats whose writer reads `setting`.
    static func names(reading setting: ImageWriter.Setting) -> String {
        let registry = CodecRegistry.standard
        return registry.writableFormats.filter { registry.writer(for: $0)?.reads.contains(setting) == true }
            .map { $0.name == "webp" ? "WebP" : $0.name.uppercased() }.listed()
    }

    /// `WebP`: the writable formats whose writer keeps animations.
    static var animationNames: String {
        let registry = CodecRegistry.standard
        return registry.writableFormats.filter { registry.writer(for: $0)?.accepts.contains(.animation) == true }
            .map { $0.name == "webp" ? "WebP" : $0.name.uppercased() }.listed()
    }

    /// `--quality`'s help: the formats it applies to.
    static var qualityHelp: ArgumentHelp {
        ArgumentHelp(
            "Output quality for \(names(reading: .quality)), 1-100 (AVIF's on JPEG's scale: about JPEG's PSNR at the same number, in fewer bytes; JXL's as cjxl maps it to a distance, 90 = 1.0)."
        )
    }

    /// `.jpg, .jpeg, … or .jfif`: the extensions of the formats a contact sheet is written in, band by band
    /// (``CodecRegistry/bandWritableFormats``).
    static var sheetList: String {
        CodecRegistry.standard.bandWritableFormats.flatMap(\.fileExtensions).map { "." + $0 }.listed(conjunction: "or")
    }
}

extension OutputExtensions {
    /// `--optimize-coding`'s help, shared by the commands that write JPEG.
    static let optimizeCodingHelp = ArgumentHelp(
        "JPEG output: Huffman tables optimised for each image, for files a few percent smaller with the same pixels, at the cost of a second entropy-coding pass (figures in BENCHMARKS.md). Off by default, as libvips writes; progressive JPEGs always have them."
    )
    /// The usage error of `--optimize-coding` with `--lossless`, which re-encodes nothing.
    static let optimizeCodingWithLossless = ValidationError(
        "--optimize-coding goes with a re-encoded output: drop --lossless")

    /// True when `path` names a format whose codec transforms losslessly (`--lossless` for crop and orient).
    static func transformsLosslessly(_ path: String) -> Bool {
        let registry = CodecRegistry.standard
        return registry.format(forPath: path).flatMap { registry.codec(for: $0)?.capabilities.losslessTransforms }
            == true
    }

    /// `--lossless writes JPEG: use a .jpg output`, naming the formats whose codec transforms losslessly.
    static var losslessUsage: String {
        let formats = CodecRegistry.standard.codecs.filter(\.capabilities.losslessTransforms).map(\.format)
        return "--lossless writes \(formats.map { $0.name.uppercased() }.joined(separator: " or ")): use a "
            + formats.map { ".\($0.fileExtension)" }.joined(separator: " or ") + " output"
    }

    /// The encoder for `path`'s extension, at `quality` for lossy formats, keeping EXIF when asked (its
    /// orientation reset to 1), JPEG 4:4:4 and with optimised Huffman tables when asked; nil for an extension no
    /// registered encoder writes.
    static func encoder(
        forPath path: String, quality: Int, keepEXIF: Bool = false, chroma444: Bool = false,
        optimizeCoding: Bool = false
    ) -> (any ImageEncoding)? {
        guard let format = CodecRegistry.standard.writableFormat(forPath: path) else { return nil }
        var settings = OutputSettings(format: format, quality: quality, optimizeCoding: optimizeCoding)
        settings.keepEXIF = keepEXIF
        settings.chroma444 = chroma444
        return try? CodecRegistry.standard.encoder(for: settings)
    }
}
