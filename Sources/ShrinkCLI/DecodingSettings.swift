import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The values of the options every command that reads images shares (``DecodingArguments``), as plain
/// values: the limits checked from each header before anything is allocated (a decoder's working memory among
/// them) and strict decoding.
struct DecodingSettings: Sendable {
    var maxPixels = ImageLimits().maxPixels
    var maxInputBytes = ImageLimits().maxInputBytes
    var maxScans = ImageLimits().maxScans
    var maxWorkingBytes = ImageLimits().maxWorkingBytes
    var strict = false
    /// The page of a multi-page file to read (0 the first).
    var page = 0

    /// Why these values cannot be used, or nil.
    var problem: String? {
        if page < 0 { return "--page counts from 0" }
        return maxWorkingBytes > 0 && maxPixels > 0 && maxInputBytes > 0 && maxScans > 0
            ? nil
            : "--max-working-bytes, --max-pixels, --max-input-bytes and --max-scans must be positive"
    }

    /// The limits as the library takes them.
    var limits: ImageLimits {
        ImageLimits(
            maxPixels: maxPixels, maxInputBytes: maxInputBytes, maxScans: maxScans, maxWorkingBytes: maxWorkingBytes)
    }

    /// Opens `input`: a file (mapped), or standard input for `-`; its page ``page`` when that is not the first.
    func open(_ input: String) throws(ImageError) -> ImageSource {
        let source: ImageSource
        if input == "-" {
            let name = Self.name(of: input)
            source = try ImageSource(
                bytes: ImageBytes(reading: STDIN_FILENO, name: name, maxBytes: maxInputBytes),
                name: name, limits: limits)
        } else {
            source = try ImageSource(path: input, limits: limits)
        }
        return page == 0 ? source : try source.page(page)
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
