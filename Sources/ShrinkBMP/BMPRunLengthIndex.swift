import ShrinkCore

/// Where each stored row of a run-length-encoded BMP (RLE8, RLE4) begins, found by one pass over the runs, so that
/// rows can be decoded in any order (a bottom-up file is shown top row first) without holding the image: an offset and
/// a starting column a row (12 bytes), and the row decoded from there when it is asked for.
struct BMPRunLengthIndex {
    /// Where each stored row's runs start (-1: nothing is drawn on that row).
    private var starts: [Int]
    /// The column each stored row's runs start at (a delta can start a row mid-way).
    private var columns: [Int32]
    /// Damage found while indexing: runs that end before the image does.
    private(set) var warning: String?

    /// How the runs of one row ended.
    private enum RowEnd {
        /// End of line: the next row starts at `offset`, column 0.
        case endOfLine(offset: Int)
        /// A delta moved down `rows` rows to column `column`; the runs go on at `offset`.
        case delta(offset: Int, rows: Int, column: Int)
        /// End of the bitmap, or of the data.
        case end(complete: Bool)
    }

    /// Indexes the runs of `header`'s image in `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, header: BMPHeader) {
        let height = header.size.height
        starts = [Int](repeating: -1, count: height)
        columns = [Int32](repeating: 0, count: height)
        var row = 0, offset: Int? = header.pixelOffset, column = 0
        while row < height, let at = offset {
            starts[row] = at
            columns[row] = Int32(column)
            switch Self.decode(bytes, header: header, from: at, column: column, into: nil) {
            case .endOfLine(let next):
                (row, offset, column) = (row + 1, next, 0)
            case .delta(let next, let down, let to):
                (row, offset, column) = (row + down, next, to)
            case .end(let complete):
                if !complete { warning = "the run-length data ends before the image does; the rest is left blank" }
                offset = nil
            }
        }
    }

    /// Bytes the index holds for an image `height` rows tall.
    static func bytes(height: Int) -> Int { height * 12 }

    /// Writes stored row `row`'s palette indices into `indices` (width bytes, zeroed first: pixels no run draws are
    /// index 0, as Pillow leaves them).
    func decodeRow(
        _ bytes: UnsafeRawBufferPointer, header: BMPHeader, row: Int, into indices: UnsafeMutableBufferPointer<UInt8>
    ) {
        indices.update(repeating: 0)
        guard starts[row] >= 0 else { return }
        _ = Self.decode(bytes, header: header, from: starts[row], column: Int(columns[row]), into: indices)
    }

    /// Follows the runs of one row from `at`, starting at `column`, writing indices into `out` when given (runs past
    /// the row's end are cut, as Pillow cuts them), until the row ends.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, header: BMPHeader, from at: Int, column: Int,
        into out: UnsafeMutableBufferPointer<UInt8>?
    ) -> RowEnd {
        let four = header.compression == .rle4
        let width = header.size.width
        var p = at, x = column
        @inline(__always) func put(_ value: UInt8) {
            if let out, x >= 0, x < width { out[x] = value }
            x += 1
        }
        while p + 2 <= bytes.count {
            let first = Int(bytes[p]), second = bytes[p + 1]
            p += 2
            if first > 0 {
                // An encoded run: `first` pixels of one index (RLE4: two alternating ones).
                if out == nil {
                    x += first
                } else {
                    for i in 0..<first { put(four ? (i & 1 == 0 ? second >> 4 : second & 0x0F) : second) }
                }
                continue
            }
            switch second {
            case 0: return .endOfLine(offset: p)
            case 1: return .end(complete: true)
            case 2:
                guard p + 2 <= bytes.count else { return .end(complete: false) }
                let dx = Int(bytes[p]), dy = Int(bytes[p + 1])
                p += 2
                x += dx
                if dy > 0 { return .delta(offset: p, rows: dy, column: x) }
            default:
                // An absolute run: `second` indices as they are, padded to a 16-bit boundary.
                let n = Int(second)
                let length = four ? (n + 1) / 2 : n
                guard p + length <= bytes.count else { return .end(complete: false) }
                if out == nil {
                    x += n
                } else {
                    for i in 0..<n {
                        let byte = bytes[p + (four ? i / 2 : i)]
                        put(four ? (i & 1 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                    }
                }
                p += length + (length & 1)
            }
        }
        return .end(complete: false)
    }
}
