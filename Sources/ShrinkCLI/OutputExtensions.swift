import Shrink

/// The output file extensions the registered encoders write, for help and error text.
enum OutputExtensions {
    /// `.jpg, .jpeg, … or .png`.
    static var list: String {
        let all = CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions).map { "." + $0 }
        return all.count > 1 ? all.dropLast().joined(separator: ", ") + " or " + all.last! : all.joined()
    }
}
