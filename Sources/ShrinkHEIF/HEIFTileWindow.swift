import ShrinkCore

/// The part of a HEIF image a decode covers: the tiles it decodes (columns and rows of the grid) and the
/// region it delivers, in coded pixels — the clean aperture, or for a window (a crop) the part of the clean
/// aperture those tiles cover.
struct HEIFTileWindow: Sendable, Equatable {
    let columns: Range<Int>
    let rows: Range<Int>
    /// What the decode delivers, in coded pixels.
    let x: Int, y: Int, width: Int, height: Int

    /// The tiles of `image` that `window` (in the image's pixels: clean aperture, stored orientation) touches,
    /// and the region they cover; every tile and the whole clean aperture without a window.
    init(_ image: HEIFImage, window: FractionalRect? = nil) {
        let ox = image.origin.x, oy = image.origin.y, tile = image.tileSize
        guard let window, image.isGrid, tile.width > 0, tile.height > 0 else {
            (columns, rows) = (0..<image.columns, 0..<image.rows)
            (x, y, width, height) = (ox, oy, image.size.width, image.size.height)
            return
        }
        // The window in coded pixels, widened to whole pixels and kept inside the clean aperture.
        let left = ox + max(0, min(image.size.width - 1, Int(window.x.rounded(.down))))
        let top = oy + max(0, min(image.size.height - 1, Int(window.y.rounded(.down))))
        let right = ox + max(1, min(image.size.width, Int((window.x + window.width).rounded(.up))))
        let bottom = oy + max(1, min(image.size.height, Int((window.y + window.height).rounded(.up))))
        columns =
            left / tile.width..<min(image.columns, max(left / tile.width + 1, (right + tile.width - 1) / tile.width))
        rows = top / tile.height..<min(image.rows, max(top / tile.height + 1, (bottom + tile.height - 1) / tile.height))
        x = max(ox, columns.lowerBound * tile.width)
        y = max(oy, rows.lowerBound * tile.height)
        width = min(ox + image.size.width, columns.upperBound * tile.width) - x
        height = min(oy + image.size.height, rows.upperBound * tile.height) - y
    }

    /// The same tiles, and their region in the pixels of a decode at 1/`d`: each pixel the mean of the d×d coded
    /// pixels it covers (fewer at the region's right and bottom edges). `x` and `y` are multiples of `d`
    /// (``HEIFDecoder/scaleDenominators`` offers no other).
    func reduced(by d: Int) -> HEIFTileWindow {
        HEIFTileWindow(
            columns: columns, rows: rows, x: x / d, y: y / d, width: (width + d - 1) / d, height: (height + d - 1) / d)
    }

    private init(columns: Range<Int>, rows: Range<Int>, x: Int, y: Int, width: Int, height: Int) {
        (self.columns, self.rows) = (columns, rows)
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The tiles decoded.
    var tileCount: Int { columns.count * rows.count }

    /// True when every tile is decoded.
    func coversAll(of image: HEIFImage) -> Bool { columns == 0..<image.columns && rows == 0..<image.rows }
}
