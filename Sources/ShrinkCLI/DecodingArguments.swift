import ArgumentParser
import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options every command that reads images shares: the limits checked from each header before anything
/// is allocated, and strict decoding. `-` as an input reads standard input (once, up to --max-input-bytes).
struct DecodingArguments: ParsableArguments {
    @Option(help: "Refuse images with more pixels than this (checked from the header).")
    var maxPixels: Int = DecodingSettings().maxPixels

    @Option(help: "Refuse input files larger than this many bytes (a count, or with a suffix: 20M, 1G).")
    var maxInputBytes = ByteCountArgument(bytes: DecodingSettings().maxInputBytes)

    @Option(
        help:
            "Refuse JPEGs with more scans than this (a progressive file has about 10; many tiny scans are a CPU bomb).")
    var maxScans: Int = DecodingSettings().maxScans

    @Option(
        name: [.customLong("max-working-bytes"), .customLong("memory-budget")],
        help:
            "Refuse a decode or lossless transform whose working memory exceeds this many bytes (a progressive JPEG's coefficient buffer, a transform's coefficients, a lossless WebP held whole, a WebP alpha plane, an interlaced GIF frame's indices), predicted from the header; a count, or with a suffix: 512M (--memory-budget is the older name)."
    )
    var maxWorkingBytes = ByteCountArgument(bytes: DecodingSettings().maxWorkingBytes)

    @Flag(
        help:
            "Fail on damage a decoder can step over (corrupt JPEG entropy data, a bad PNG checksum, malformed EXIF, a damaged later GIF frame); by default the image is decoded and a warning is printed. A file cut before its image ends is an error either way."
    )
    var strict = false

    @Option(
        help:
            "The page of a multi-page file to read, counting from 0 (a TIFF's pages; `shrink info` lists them). Default: 0."
    )
    var page = 0

    func validate() throws {
        if let problem = settings.problem { throw ValidationError(problem) }
    }

    /// The options' values, as the commands use them.
    var settings: DecodingSettings {
        DecodingSettings(
            maxPixels: maxPixels, maxInputBytes: maxInputBytes.bytes, maxScans: maxScans,
            maxWorkingBytes: maxWorkingBytes.bytes,
            strict: strict, page: page)
    }

    /// Opens `input` (``DecodingSettings/open(_:)``).
    func open(_ input: String) throws(ImageError) -> ImageSource { try settings.open(input) }
}
