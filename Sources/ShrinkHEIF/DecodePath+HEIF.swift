import ShrinkCore

extension DecodePath {
    /// A grid of HEVC tiles decoded a row of tiles at a time, each row's band streamed to the resampler.
    public static let tileRows = DecodePath("tileRows")
}
