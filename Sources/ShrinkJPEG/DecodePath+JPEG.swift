import ShrinkCore

extension DecodePath {
    /// Y, Cb, Cr planes of a baseline JPEG cut at its restart markers into bands of rows, each decoded by a libjpeg
    /// decoder of its own, on several threads while cores would idle.
    package static let restartBands = DecodePath("restartBands")
}
