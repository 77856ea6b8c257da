/// Bounds on what a HEIF/AVIF container may declare, checked before anything is allocated for it. Generous for
/// real photos — an iPhone's 48 tiles, a larger phone's 6×9 grid, their alpha grids and thumbnails — and far
/// below what would cost memory or time.
enum HEIFLimits {
    /// Items (`iinf` entries, `iloc` entries, `ipma` entries).
    static let maxItems = 4096
    /// Extents per item, and in all.
    static let maxExtentsPerItem = 1024
    static let maxExtents = 65536
    /// References from one item of one type, and in all.
    static let maxReferencesPerItem = 4096
    static let maxReferences = 65536
    /// Properties in `ipco`, and associations per `ipma` entry (one byte counts them).
    static let maxProperties = 4096
    /// Boxes at one level of nesting.
    static let maxBoxesPerLevel = 8192
    /// Tiles of a grid (256 × 256 of them).
    static let maxTiles = 65536
}
