import CShrinkCGIF
import ShrinkCore

/// cgif, loaded with dlopen the first time a GIF is written (linked, every process would map it at start).
enum CGIFLibrary {
    /// Loads cgif (the first call; later ones cost an atomic load). Fails with `.unsupportedFeature` saying why it did
    /// not load.
    static func load() throws(ImageError) {
        guard shrink_cgif_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "writing GIF needs cgif", debian: "libcgif0", reason: shrink_cgif_load_error())
        }
    }
}
