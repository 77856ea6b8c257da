import CShrinkTIFF
import ShrinkCore

/// What one thread decodes a TIFF page's blocks with (its tiles, or runs of whole strips): its own libtiff handle on
/// the page (libtiff's state belongs to one thread), Shrink's LZW reader where it serves, one decoded tile or stored
/// row and, at 1/d, its own conversion and sums, so threads decoding blocks of one page share nothing they write but a
/// band's disjoint columns (their sums are poured into the decode's under its lock: ``TIFFBlockRows``).
///
/// Memory: a decoded tile (``TIFFPage/blockBytes``) or one stored row, libtiff's handle and codec state, and at 1/d a
/// converted row and one block's sums (``bytes(_:block:format:reduction:)``).
final class TIFFBlockLane {
    let handle: TIFFHandle
    private let page: TIFFPage
    private let lzw: TIFFLZWReader?
    /// A decoded tile, or one stored row of a stripped page.
    private var stored: [UInt8]
    /// At 1/d: the stored samples' conversion, one converted row, and the sums a block is reduced in, its part
    /// widened to whole d×d blocks of the page (so a d×d block cut by a block's edge is poured whole).
    private let sampleRows: TIFFSampleRows?
    private var converted: [UInt8] = []
    private let sums: BoxReducer?

    /// A lane on `page` of the TIFF in `bytes`, for blocks of up to `block` pixels; at 1/`reduction` (above 1) rows
    /// are converted to `format` (ink through `ink`) and summed. Fails with `.corruptData` when the page's directory
    /// cannot be read again.
    init(
        page: TIFFPage, block: PixelSize, bytes: ImageBytes, path: String, maxAllocation: Int, format: PixelFormat,
        ink: any InkConverting, reduction d: Int
    ) throws(ImageError) {
        let handle = try TIFFHandle(bytes: bytes, path: path, maxAllocation: maxAllocation, selecting: page.location)
        self.handle = handle
        self.page = page
        lzw = TIFFLZWReader(page: page, handle: handle, bytes: bytes)
        stored = [UInt8](repeating: 0, count: page.tile == nil ? page.size.width * page.bytesPerPixel : page.blockBytes)
        if d > 1 {
            sampleRows = TIFFSampleRows(page: page, format: format, ink: ink, width: block.width)
            converted = [UInt8](repeating: 0, count: block.width * format.channels)
            let span = Self.span(block, d: d)
            sums = BoxReducer(source: span, d: d, channels: format.channels, bandRows: span.height)
        } else {
            sampleRows = nil
            sums = nil
        }
    }

    /// A block's part widened by up to d - 1 pixels before it, to start on a d×d block's edge.
    private static func span(_ block: PixelSize, d: Int) -> PixelSize {
        PixelSize(width: block.width + d - 1, height: block.height + d - 1)
    }

    /// Bytes a lane holds for blocks of `block` pixels at 1/`d`: the decoded tile or stored row, and at 1/d a
    /// converted row, the conversion's rows of 8-bit samples and ink, and one block's sums.
    static func bytes(_ page: TIFFPage, block: PixelSize, format: PixelFormat, reduction d: Int) -> Int {
        let stored = page.tile == nil ? page.size.width * page.bytesPerPixel : page.blockBytes
        guard d > 1 else { return stored }
        let span = span(block, d: d)
        return stored + block.width * (format.channels + page.samplesPerPixel + 7)
            + BoxReducer.bytes(source: span, d: d, channels: format.channels, bandRows: span.height)
    }

    /// Why the last read failed: Shrink's LZW reader's reason, or libtiff's last error.
    var failure: String { lzw.map(\.failure) ?? handle.lastError }

    /// Decodes the tile whose top left is pixel (`x`, `y`) and copies the first `columns` pixels of its first `rows`
    /// rows to `band` (`stride` bytes a row), as stored; false when the tile cannot be decoded.
    func copyTile(x: Int, y: Int, rows: Int, columns: Int, into band: UnsafeMutablePointer<UInt8>, stride: Int)
        -> Bool
    {
        guard let tile = page.tile, readTile(x, y) else { return false }
        let pixel = page.bytesPerPixel
        stored.withUnsafeBytes { t in
            for r in 0..<rows {
                (band + r * stride).update(
                    from: t.baseAddress!.assumingMemoryBound(to: UInt8.self) + r * tile.width * pixel,
                    count: columns * pixel)
            }
        }
        return true
    }

    /// Decodes the block whose top left is page pixel (`x`, `y`) — a tile, or the stripped page's rows `y` to
    /// `y + rows` — and converts and sums its first `columns` pixels of its first `rows` rows in the lane's sums;
    /// returns the page's first reduced column and row they cover and how many columns and rows of sums to pour
    /// (``pour(_:into:)``), or nil when the block cannot be decoded.
    func sum(x: Int, y: Int, rows: Int, columns: Int) -> (column: Int, row: Int, columns: Int, rows: Int)? {
        guard let sums, let sampleRows else { return nil }
        let d = sums.d, left = x % d, top = y % d
        if page.tile != nil {
            guard readTile(x, y) else { return nil }
            let rowBytes = (page.tile?.width ?? 0) * page.bytesPerPixel
            add(rows: rows, columns: columns, left: left, top: top, stride: rowBytes, sampleRows, sums)
        } else {
            for r in 0..<rows {
                guard readRow(y + r) else { return nil }
                add(rows: 1, columns: columns, left: left, top: top + r, stride: 0, sampleRows, sums)
            }
        }
        return (x / d, y / d, (left + columns + d - 1) / d, (top + rows + d - 1) / d)
    }

    /// Converts `rows` stored rows (`stride` bytes apart from the start of ``stored``) and adds them to `sums` from
    /// row `top`, column `left`.
    private func add(
        rows: Int, columns: Int, left: Int, top: Int, stride: Int, _ sampleRows: TIFFSampleRows, _ sums: BoxReducer
    ) {
        converted.withUnsafeMutableBufferPointer { row in
            stored.withUnsafeBytes { t in
                for r in 0..<rows {
                    sampleRows.convert(t.baseAddress! + r * stride, into: row.baseAddress!)
                    sums.add(row.baseAddress!, row: top + r, column: left, count: columns)
                }
            }
        }
    }

    /// Adds the sums of the last ``sum(x:y:rows:columns:)`` to `target`'s and clears them.
    func pour(_ part: (column: Int, row: Int, columns: Int, rows: Int), into target: BoxReducer) {
        sums?.pour(rows: part.rows, columns: part.columns, into: target, row: part.row, column: part.column)
    }

    /// Decodes the tile holding pixel (`x`, `y`) into ``stored``.
    private func readTile(_ x: Int, _ y: Int) -> Bool {
        stored.withUnsafeMutableBytes { t in
            if let lzw {
                return lzw.read(tileAt: x, y, into: t.baseAddress!.assumingMemoryBound(to: UInt8.self), handle: handle)
            }
            return cshrink_tiff_read_tile(handle.raw, UInt32(x), UInt32(y), t.baseAddress, t.count) >= 0
        }
    }

    /// Decodes stored row `y` of a stripped page into ``stored`` (a lane reads rows forward only: a block is whole
    /// strips, and a lane's blocks come in the page's order).
    private func readRow(_ y: Int) -> Bool {
        stored.withUnsafeMutableBytes { row in
            if let lzw {
                return lzw.read(row: y, into: row.baseAddress!.assumingMemoryBound(to: UInt8.self), handle: handle)
            }
            return cshrink_tiff_read_scanline(handle.raw, UInt32(y), row.baseAddress) == 1
        }
    }
}
