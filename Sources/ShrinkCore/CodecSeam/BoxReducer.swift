/// Sums a codec's rows (gray8, rgb8 or rgba8) into rows 1/`d` of their size, each output pixel the mean of the d×d
/// source pixels it covers (fewer at the right and bottom edges; colour weighted by alpha), so a decode at 1/d holds
/// a few reduced rows of sums instead of full-size bands (TIFF's strips and tiles, JPEG XL's groups). Rows arrive in
/// any column order (a row of tiles delivers each tile's part of a row), and in source-row order band by band.
package final class BoxReducer {
    package let d: Int
    package let channels: Int
    /// The full size, and the reduced one.
    package let source: PixelSize, size: PixelSize
    /// Sums of the reduced rows in flight, a ring of `slots` rows (`UInt32`: 255 × 255 × 64² fits).
    private var sums: [UInt32]
    private let slots: Int

    /// A reducer by `d` of an image of `source` size in `channels` channels, `bandRows` source rows added at most
    /// before the rows they complete are taken.
    package init(source: PixelSize, d: Int, channels: Int, bandRows: Int) {
        self.d = d
        self.channels = channels
        self.source = source
        size = Self.reducedSize(source, d: d)
        slots = (bandRows + d - 1) / d + 1
        sums = [UInt32](repeating: 0, count: slots * size.width * channels)
    }

    /// The size of `source` at 1/`d` (each side rounded up: the last pixel covers what is left).
    package static func reducedSize(_ source: PixelSize, d: Int) -> PixelSize {
        PixelSize(width: (source.width + d - 1) / d, height: (source.height + d - 1) / d)
    }

    /// Bytes it holds for these figures.
    package static func bytes(source: PixelSize, d: Int, channels: Int, bandRows: Int) -> Int {
        ((bandRows + d - 1) / d + 1) * ((source.width + d - 1) / d) * channels * 4
    }

    /// Adds `count` pixels of source row `y` starting at column `x`: each run of pixels that falls in one output column
    /// summed in registers, then added to that column's sums.
    package func add(_ pixels: UnsafePointer<UInt8>, row y: Int, column x: Int, count: Int) {
        let base = (y / d % slots) * size.width * channels
        let c = channels, d = d
        sums.withUnsafeMutableBufferPointer { s in
            var i = 0, column = x / d, blockEnd = (column + 1) * d - x
            while i < count {
                let end = min(count, blockEnd), o = base + column * c
                switch c {
                case 1:
                    var v: UInt32 = 0
                    while i < end {
                        v &+= UInt32(pixels[i])
                        i &+= 1
                    }
                    s[o] &+= v
                case 3:
                    var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                    while i < end {
                        let p = pixels + 3 &* i
                        r &+= UInt32(p[0])
                        g &+= UInt32(p[1])
                        b &+= UInt32(p[2])
                        i &+= 1
                    }
                    s[o] &+= r
                    s[o + 1] &+= g
                    s[o + 2] &+= b
                default:
                    while i < end {
                        let p = pixels + i * c
                        if c == 4 {
                            let a = UInt32(p[3])
                            s[o] += UInt32(p[0]) * a
                            s[o + 1] += UInt32(p[1]) * a
                            s[o + 2] += UInt32(p[2]) * a
                            s[o + 3] += a
                        } else {
                            for k in 0..<c { s[o + k] += UInt32(p[k]) }
                        }
                        i += 1
                    }
                }
                column += 1
                blockEnd += d
            }
        }
    }

    /// Adds the sums of reduced rows 0..<`rows`, columns 0..<`columns`, to `target`'s reduced row `row` and column
    /// `column` on, and clears them: a thread sums one piece (a tile) in a reducer of its own, its part widened to
    /// whole d×d blocks, then pours it into the decode's, where blocks cut by the piece's edges meet their other parts.
    package func pour(rows: Int, columns: Int, into target: BoxReducer, row: Int, column: Int) {
        let c = channels, width = size.width, targetWidth = target.size.width, targetSlots = target.slots
        let count = min(columns, width, targetWidth - column) * c
        guard count > 0 else { return }
        sums.withUnsafeMutableBufferPointer { s in
            target.sums.withUnsafeMutableBufferPointer { t in
                for r in 0..<min(rows, slots) {
                    let from = (r % slots) * width * c, to = ((row + r) % targetSlots * targetWidth + column) * c
                    for i in 0..<count {
                        t[to + i] &+= s[from + i]
                        s[from + i] = 0
                    }
                }
            }
        }
    }

    /// Writes reduced row `r` (complete: every source row it covers added) into `out` as means, and clears its sums.
    package func take(row r: Int, into out: UnsafeMutablePointer<UInt8>) {
        let base = (r % slots) * size.width * channels
        let rows = min(source.height, (r + 1) * d) - r * d
        let c = channels, d = d, width = size.width, sourceWidth = source.width
        sums.withUnsafeMutableBufferPointer { s in
            for x in 0..<width {
                let count = UInt32((min(sourceWidth, (x + 1) * d) - x * d) * rows)
                let o = base + x * c
                if c == 4 {
                    let alpha = s[o + 3]
                    for k in 0..<3 { out[x * 4 + k] = alpha == 0 ? 0 : UInt8((s[o + k] + alpha / 2) / alpha) }
                    out[x * 4 + 3] = UInt8((alpha + count / 2) / count)
                } else {
                    for k in 0..<c { out[x * c + k] = UInt8((s[o + k] + count / 2) / count) }
                }
                for k in 0..<c { s[o + k] = 0 }
            }
        }
    }
}
