import Shrink

/// The output file extensions the registered encoders write, for help and error text.
enum OutputExtensions {
    /// `.jpg, .jpeg, … or .png`.
    static var list: String {
        let all = CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions).map { "." + $0 }
        return all.count > 1 ? all.dropLast().joined(separator: ", ") + " or " + all.last! : all.joined()
    }
}

extension OutputExtensions {
    /// The encoder for `path`'s extension, at `quality` for JPEG and WebP, keeping EXIF when asked (its
    /// orientation reset to 1); nil for an extension no registered encoder writes.
    static func encoder(forPath path: String, quality: Int, keepEXIF: Bool = false, chroma444: Bool = false) -> (any ImageEncoding)? {
        switch CodecRegistry.standard.encoder(forPath: path)?.format {
        case .jpeg?:
            var options = JPEGEncoder.Options(quality: quality, chroma444: chroma444)
            options.keepEXIF = keepEXIF
            return JPEGEncoder(options: options)
        case .webp?: return WebPEncoder(options: WebPEncoder.Options(quality: quality, keepEXIF: keepEXIF))
        case .png?: return PNGEncoder(options: PNGEncoder.Options(keepEXIF: keepEXIF))
        case let format?: return CodecRegistry.standard.codec(for: format)?.makeEncoder?()
        case nil: return nil
        }
    }
}
