/// The metadata a result can carry into its encoded file: the ICC profile (so colours stay right) and
/// the EXIF block (camera, time, GPS — stripped by default for privacy).
public struct ImageMetadata: Sendable, Equatable {
    /// The ICC profile, whole (reassembled from JPEG APP2 chunks; decompressed from PNG iCCP).
    public var iccProfile: [UInt8]?
    /// The EXIF TIFF structure (without JPEG's `Exif\0\0` prefix).
    public var exif: [UInt8]?

    /// Metadata holding `iccProfile` and `exif` (raw bytes, as the file stores them).
    public init(iccProfile: [UInt8]? = nil, exif: [UInt8]? = nil) {
        self.iccProfile = iccProfile
        self.exif = exif
    }

    /// The same metadata for pixels that are already displayed upright: the EXIF orientation tag, when
    /// present, is rewritten to 1 so viewers do not rotate the result a second time.
    public var orientedUpright: ImageMetadata {
        guard let exif else { return self }
        return ImageMetadata(iccProfile: iccProfile, exif: ExifReader.settingOrientationUp(exif))
    }
}
