import ShrinkCore

extension ContactSheet {
    /// The grid of a contact sheet: square cells of `cell` pixels, `columns` wide, `gap` pixels between
    /// cells and around the edge, on a `background` colour. Photos keep their aspect ratio, centred in their
    /// cell (to the even pixel: the sheet is 4:2:0). With no gap, give an even cell: rows of cells must start
    /// on even rows, and with an odd cell and no gap a photo as tall as its cell loses its last row.
    package struct Layout: Sendable {
        /// Cell side in pixels. `256` by default.
        package var cell: Int
        /// Cells per row. `8` by default.
        package var columns: Int
        /// Pixels between cells and around the edge. `4` by default.
        package var gap: Int
        /// Background colour (red, green, blue). Dark grey `(32, 32, 32)` by default.
        package var background: (red: UInt8, green: UInt8, blue: UInt8)

        package init(
            cell: Int = 256, columns: Int = 8, gap: Int = 4,
            background: (red: UInt8, green: UInt8, blue: UInt8) = (32, 32, 32)
        ) {
            self.cell = max(1, cell)
            self.columns = max(1, columns)
            self.gap = max(0, gap)
            self.background = background
        }

        /// Rows of cells needed for `count` photos.
        package func rows(count: Int) -> Int { (count + columns - 1) / columns }

        /// The sheet's size for `count` photos (as many columns as photos when there are fewer).
        package func sheetSize(count: Int) -> PixelSize {
            let c = min(columns, max(1, count)), r = max(1, rows(count: count))
            return PixelSize(width: c * cell + (c + 1) * gap, height: r * cell + (r + 1) * gap)
        }
    }
}
