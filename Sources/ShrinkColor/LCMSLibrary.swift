import CShrinkLCMS
import ShrinkCore

/// Little CMS 2, loaded with dlopen the first time colour is managed (linked, every process would map it at start).
package enum LCMSLibrary {
    /// Loads lcms2 (the first call; later ones cost an atomic load). Fails with `.unsupportedFeature` saying why it
    /// did not load. Colour management cannot run without it, so ``LCMSProfile/prepared`` stops a process that finds it
    /// missing, and a server checks this before it starts.
    package static func load() throws(ImageError) {
        guard shrink_lcms_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "colour management needs Little CMS", debian: "liblcms2-2", reason: shrink_lcms_load_error())
        }
    }
}
