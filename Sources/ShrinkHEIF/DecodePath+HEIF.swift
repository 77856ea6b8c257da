import ShrinkCore

extension DecodePath {
    /// A grid of HEVC tiles decoded a row of tiles at a time, each row's band streamed to the resampler.
    package static let tileRows = DecodePath("tileRows")
}

extension DecodePath {
    /// An item the tile path does not decode (`iden`, `iovl`) decoded whole by libheif to RGB(A), then
    /// streamed to the resampler: charged at its full size.
    package static let libheifWhole = DecodePath("libheifWhole")
}
