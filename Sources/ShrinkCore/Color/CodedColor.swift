/// What an image without an ICC profile says its colours mean, as the file codes it: H.273 code points (HEIF and
/// AVIF `colr`/`nclx`, PNG `cICP`), or PNG's gamma and chromaticities (`gAMA`, `cHRM`). Colour management turns
/// it into an equivalent profile; an image with neither this nor a profile is sRGB.
package enum CodedColor: Sendable, Hashable {
    /// ITU-T H.273 colour primaries (1 BT.709, 9 BT.2020, 12 Display P3…) and transfer characteristics
    /// (13 sRGB, 16 PQ, 18 HLG…).
    case codePoints(primaries: Int, transfer: Int)
    /// PNG's `gAMA` (the encoding gamma, 0.45455 for a 2.2 display) and `cHRM` (white, red, green and blue
    /// as CIE xy pairs, in that order), each optional.
    case gammaAndChromaticities(gamma: Double?, chromaticities: [Double]?)

    /// True for PQ and HLG transfers (HDR video curves), whose steep coding needs more than 8 bits through the
    /// conversion.
    package var isHighDynamicRange: Bool {
        if case .codePoints(_, let transfer) = self { return transfer == 16 || transfer == 18 }
        return false
    }
}
