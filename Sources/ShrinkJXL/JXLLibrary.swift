import CShrinkJXL
import ShrinkCore

/// libjxl, loaded with dlopen the first time a JPEG XL file is read or written (linked, every process would map it and
/// the C++ libraries it pulls in at start).
enum JXLLibrary {
    /// Loads libjxl (the first call; later ones cost an atomic load). Fails with `.unsupportedFeature` saying why it did
    /// not load; `subject` (a path, or what is being written) leads the message.
    static func load(for subject: String) throws(ImageError) {
        guard shrink_jxl_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(subject): JPEG XL needs libjxl", debian: "libjxl0.7", reason: shrink_jxl_load_error())
        }
    }
}
