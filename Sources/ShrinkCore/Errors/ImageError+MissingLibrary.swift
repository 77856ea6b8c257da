extension ImageError {
    /// The `.unsupportedFeature` error for a library Shrink loads with dlopen on first use when it did not load:
    /// "`need` (Debian: `packages`), which did not load: `reason`". `need` says what needed it and may lead with the
    /// file's name (`"a.heic: HEVC-coded images need libde265"`); `reason` is the loader's message. Called only on
    /// that failure: the message is built then.
    package static func libraryDidNotLoad(
        _ need: String, debian packages: String, reason: UnsafePointer<CChar>
    ) -> ImageError {
        ImageError(.unsupportedFeature, "\(need) (Debian: \(packages)), which did not load: " + String(cString: reason))
    }
}
