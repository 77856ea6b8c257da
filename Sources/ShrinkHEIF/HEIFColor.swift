/// A `colr` property: code points (ITU-T H.273) or an ICC profile.
package enum HEIFColor: Sendable, Equatable {
    /// `nclx`: colour primaries, transfer characteristics, matrix coefficients and the range flag.
    case nclx(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)
    /// `rICC` or `prof`: an ICC profile, where it lies in the file.
    case icc(Range<Int>)
}
