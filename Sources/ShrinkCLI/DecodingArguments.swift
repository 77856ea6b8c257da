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
    var maxPixels: Int = ImageLimits().maxPixels

    @Option(help: "Refuse input files larger than this many bytes.")
    var maxInputBytes: Int = ImageLimits().maxInputBytes

    @Option(help: "Refuse JPEGs with more scans than this (a progressive file has about 10; many tiny scans are a CPU bomb).")
    var maxScans: Int = ImageLimits().maxScans

    @Option(help: "Refuse a decode or lossless transform whose working memory exceeds this many bytes (a progressive JPEG's coefficient buffer, a transform's coefficients, a lossless WebP held whole, a WebP alpha plane, an interlaced GIF frame's indices), predicted from the header.")
    var memoryBudget: Int = ThumbnailOptions().memoryBudget

    @Flag(help: "Fail on damage a decoder can step over (corrupt JPEG entropy data, a bad PNG checksum, malformed EXIF, a damaged later GIF frame); by default the image is decoded and a warning is printed. A file cut before its image ends is an error either way.")
    var strict = false

    func validate() throws {
        guard memoryBudget > 0, maxPixels > 0, maxInputBytes > 0, maxScans > 0 else {
            throw ValidationError("--memory-budget, --max-pixels, --max-input-bytes and --max-scans must be positive")
        }
    }

    /// The limits as the library takes them.
    var limits: ImageLimits { ImageLimits(maxPixels: maxPixels, maxInputBytes: maxInputBytes, maxScans: maxScans) }

    /// Opens `input`: a file (mapped), or standard input for `-`.
    func open(_ input: String) throws(ImageError) -> ImageSource {
        guard input == "-" else { return try ImageSource(path: input, limits: limits) }
        let name = Self.name(of: input)
        return try ImageSource(bytes: ImageBytes(reading: STDIN_FILENO, name: name, maxBytes: maxInputBytes),
                               name: name, limits: limits)
    }

    /// What messages call `input`: `<stdin>` for `-`, else the path as given.
    static func name(of input: String) -> String { input == "-" ? "<stdin>" : input }

    /// Prints each warning as one line on standard error: `shrink: warning: INPUT: TEXT`.
    static func report(_ warnings: [String], for input: String, to terminal: Terminal? = nil) {
        for warning in warnings {
            let line = "shrink: warning: \(input): \(warning)"
            if let terminal { terminal.err(line) } else { Terminal.write(line + "\n", to: STDERR_FILENO) }
        }
    }
}
