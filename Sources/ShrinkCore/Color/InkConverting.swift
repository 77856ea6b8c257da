/// Turns decoded CMYK ink into RGB for display. A codec that decodes CMYK (JPEG's CMYK and YCCK) calls the
/// converter of ``DecodeOptions/inkConverter`` on each strip of rows it decodes, at the decoded (DCT-scaled)
/// size, before the resampler: ink does not average like light, so it must become RGB first. Without one,
/// `NaiveInk` serves.
public protocol InkConverting: Sendable {
    /// Converts `count` CMYK pixels at `ink` (4 bytes each) to rgb8 at `rgb`. `inverted`: the ink is stored
    /// inverted, 0 meaning full ink, as Adobe's applications write it (files with an APP14 Adobe marker).
    func convert(_ ink: UnsafePointer<UInt8>, inverted: Bool, into rgb: UnsafeMutablePointer<UInt8>, count: Int)
}
