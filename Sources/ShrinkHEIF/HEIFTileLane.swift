import ShrinkCore

/// What one thread decodes a grid's tiles with: its own decoder and, at 1/d, its own sums (``BoxReducer``), so
/// threads decoding tiles of the same image share nothing they write but the band's disjoint columns.
final class HEIFTileLane {
    let decoder: HEIFTileDecoder
    /// Per plane, the sums a tile is reduced in, by the size of the tile's part delivered (a tile cut by the
    /// window's far edges has its own).
    private var reducers: [[PixelSize: BoxReducer]]

    /// A lane for `image`'s tiles (`planeCount` planes).
    init(_ image: HEIFImage, planeCount: Int, path: String) throws(ImageError) {
        decoder = try HEIFTileDecoder(image, path: path)
        reducers = Array(repeating: [:], count: planeCount)
    }

    /// Plane `p`'s reducer by `d` for a tile's part of `size` (coded pixels), made the first time: a whole tile's,
    /// and at most three others where the window's far edges cut tiles.
    func reducer(_ p: Int, _ size: PixelSize, d: Int) -> BoxReducer {
        if let reducer = reducers[p][size] { return reducer }
        let reducer = BoxReducer(source: size, d: d, channels: 1, bandRows: d)
        reducers[p][size] = reducer
        return reducer
    }
}
