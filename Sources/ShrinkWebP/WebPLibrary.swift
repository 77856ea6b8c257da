import CShrinkWebP
import ShrinkCore

/// libwebp with its demuxer and muxer, loaded with dlopen the first time a WebP file is read or written (linked, every
/// process would map the three at start).
enum WebPLibrary {
    /// Loads the libraries (the first call; later ones cost an atomic load). Fails with `.unsupportedFeature` naming
    /// what did not load; `subject` (a path, or what is being written) leads the message.
    static func load(for subject: String) throws(ImageError) {
        guard shrink_webp_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(subject): WebP needs libwebp", debian: "libwebp7, libwebpdemux2, libwebpmux3",
                reason: shrink_webp_load_error())
        }
    }
}
