import CShrinkResample
import ShrinkCore

/// The first stage of the resampler: for large reductions it averages `factorX × factorY` blocks of the
/// incoming 8- or 16-bit rows so that the Lanczos stage after it convolves a few taps instead of tens, and it
/// hands that stage float rows on the 0–255 scale, colour premultiplied by alpha when the last channel is alpha
/// (transparent pixels add no colour, edges get no dark fringes).
///
/// Block sums are integers taken straight from the input row: 8-bit samples (premultiplied: `colour × alpha`)
/// sum in `UInt32`, 16-bit ones (and 8-bit blocks too large for 32 bits) in `UInt64`, so a block costs one
/// multiply-add per sample and no float conversion until the block closes. 8-bit rows are summed down first:
/// each row adds into a row of per-pixel sums (`shrink_box_accumulate8`, whole vectors of samples whatever the
/// block width), and only the block's last row adds those across into block sums (`shrink_box_blocks`).
///
/// Only the block columns asked for are made (``columns``: what the Lanczos windows read, a crop's columns and
/// their reach), from only the input pixels under them.
///
/// Memory: when shrinking, one row of block sums (`columns × channels`, 4 or 8 bytes each) and, for 8-bit rows,
/// one row of per-pixel sums (the columns' input pixels × channels × 4 bytes); see
/// ``predictedBytes(inputWidth:format:factorX:factorY:)``. Each completed float row is written where the caller
/// says (the resampler's ring), so the stage holds no row of its own.
/// Edge blocks that overhang the image average only the pixels that exist.
struct BoxShrink {
    let factorX: Int
    let factorY: Int
    let inputWidth: Int
    let inputHeight: Int
    let channels: Int
    let sixteenBit: Bool
    let premultiplies: Bool
    /// The block columns each completed row holds (`columns.count × channels` floats), within the
    /// `blocks(inputWidth, factor: factorX)` across the whole input.
    let columns: Range<Int>
    /// The input pixels under ``columns``: from `firstPixel`, `pixelCount` of them.
    private let firstPixel: Int
    private let pixelCount: Int
    /// Block sums in 32 bits (8-bit samples, blocks small enough), else empty.
    private var sums8: [UInt32]
    /// Per-pixel sums of the block's 8-bit rows so far (`pixelCount × channels`), with `sums8`, else empty.
    private var pixelSums8: [UInt32]
    /// Block sums in 64 bits (16-bit samples or very large blocks), else empty.
    private var wideSums: [UInt64]
    private var rowsInBlock = 0
    /// Rows of the current block added to the per-pixel sums (the first stores over the last block's sums).
    private var rowsSummedInBlock = 0

    /// A box stage making block `columns` (all of them by default) of `factorX × factorY` blocks.
    init(inputWidth: Int, inputHeight: Int, format: PixelFormat, factorX: Int, factorY: Int, columns: Range<Int>? = nil)
    {
        self.factorX = factorX
        self.factorY = factorY
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        channels = format.channels
        sixteenBit = format == .rgba16
        premultiplies = format == .rgba8 || format == .rgba16
        let across = Self.blocks(inputWidth, factor: factorX)
        let columns = (columns ?? 0..<across).clamped(to: 0..<across)
        self.columns = columns
        firstPixel = columns.lowerBound * factorX
        pixelCount = max(0, min(columns.upperBound * factorX, inputWidth) - firstPixel)
        let shrinks = factorX > 1 || factorY > 1
        let wide = Self.needsWideSums(format: format, factorX: factorX, factorY: factorY)
        sums8 = shrinks && !wide ? [UInt32](repeating: 0, count: columns.count * channels) : []
        pixelSums8 = shrinks && !wide ? [UInt32](repeating: 0, count: pixelCount * channels) : []
        wideSums = shrinks && wide ? [UInt64](repeating: 0, count: columns.count * channels) : []
    }

    /// Blocks of `factor` samples over `count` samples (the last may be narrower): the box stage's output width
    /// or height.
    static func blocks(_ count: Int, factor: Int) -> Int { (count + factor - 1) / factor }

    /// True when a block's sums may pass `UInt32.max`: 16-bit samples, or 8-bit blocks of more than 66,051
    /// premultiplied (255 × 255) samples.
    static func needsWideSums(format: PixelFormat, factorX: Int, factorY: Int) -> Bool {
        let largest = format == .rgba8 ? 255 * 255 : 255
        let (samples, overflow) = factorX.multipliedReportingOverflow(by: factorY)
        return format == .rgba16 || overflow || samples > Int(UInt32.max) / largest
    }

    /// Bytes a box stage over rows `inputWidth` wide (or over that many input pixels of its columns) holds:
    /// when shrinking, the block sums, and for 8-bit rows the per-pixel sums.
    static func predictedBytes(inputWidth: Int, format: PixelFormat, factorX: Int, factorY: Int) -> Int {
        guard factorX > 1 || factorY > 1 else { return 0 }
        let width = blocks(inputWidth, factor: factorX) * format.channels
        let wide = needsWideSums(format: format, factorX: factorX, factorY: factorY)
        return wide ? width * 8 : width * 4 + inputWidth * format.channels * 4
    }

    /// Bytes this stage holds.
    var workingBytes: Int { sums8.count * 4 + pixelSums8.count * 4 + wideSums.count * 8 }

    /// Adds input row `y`; when this row closes a block, writes the block row's floats (``columns`` ×
    /// channels) to `out` and returns its index. `accumulate` false skips the work (the block is not needed)
    /// but still tracks block boundaries; nothing is written then.
    mutating func add(row: UnsafeRawPointer, y: Int, accumulate: Bool, into out: UnsafeMutablePointer<Float>) -> Int? {
        if factorX == 1 && factorY == 1 {
            if accumulate {
                Self.convert(
                    row + firstPixel * channels * (sixteenBit ? 2 : 1), count: pixelCount * channels,
                    channels: channels, sixteenBit: sixteenBit, premultiplies: premultiplies, into: out)
            }
            return y
        }
        if accumulate {
            // From the first pixel of the first column asked for; widths and blocks count from there.
            let (c, fx, w, ow, first) = (channels, factorX, pixelCount, columns.count, firstPixel * channels)
            if sixteenBit {
                wideSums.withUnsafeMutableBufferPointer {
                    Self.sumAny(
                        row.assumingMemoryBound(to: UInt16.self) + first, width: w, factor: fx, blocks: ow, channels: c,
                        premultiplies: premultiplies, into: $0.baseAddress!)
                }
            } else if !wideSums.isEmpty {
                wideSums.withUnsafeMutableBufferPointer {
                    Self.sumAny(
                        row.assumingMemoryBound(to: UInt8.self) + first, width: w, factor: fx, blocks: ow, channels: c,
                        premultiplies: premultiplies, into: $0.baseAddress!)
                }
            } else {
                pixelSums8.withUnsafeMutableBufferPointer {
                    shrink_box_accumulate8(
                        row.assumingMemoryBound(to: UInt8.self) + first, w, c, premultiplies ? 1 : 0,
                        rowsSummedInBlock == 0 ? 1 : 0, $0.baseAddress!)
                }
            }
        }
        rowsInBlock += 1
        if accumulate { rowsSummedInBlock += 1 }
        let closes = rowsInBlock == factorY || y == inputHeight - 1
        guard closes else { return nil }
        let rows = rowsInBlock
        rowsInBlock = 0
        rowsSummedInBlock = 0
        if accumulate {
            if !sums8.isEmpty {
                let (c, fx, w) = (channels, factorX, pixelCount)
                pixelSums8.withUnsafeMutableBufferPointer { pixels in
                    sums8.withUnsafeMutableBufferPointer {
                        shrink_box_blocks(pixels.baseAddress!, w, c, fx, $0.baseAddress!)
                    }
                }
            }
            finishBlock(rows: rows, into: out)
        }
        return y / factorY
    }

    /// One row to floats on the 0–255 scale, colour premultiplied by alpha when there is alpha (8-bit rows in
    /// `shrink_row_to_float8`).
    private static func convert(
        _ row: UnsafeRawPointer, count n: Int, channels c: Int, sixteenBit: Bool,
        premultiplies: Bool, into out: UnsafeMutablePointer<Float>
    ) {
        guard sixteenBit else {
            shrink_row_to_float8(row.assumingMemoryBound(to: UInt8.self), n, c, premultiplies ? 1 : 0, out)
            return
        }
        let p = row.assumingMemoryBound(to: UInt16.self)
        for i in 0..<n { out[i] = Float(p[i]) * (1 / 257) }
        guard premultiplies else { return }
        var i = 0
        while i < n {
            let a = out[i + c - 1] * (1 / 255)
            for k in 0..<(c - 1) { out[i + k] *= a }
            i += c
        }
    }

    /// Adds one row of 8- or 16-bit samples into `sums` (`blocks × channels`): per block of `factor` pixels, the
    /// sum of each channel, colour times alpha when `premultiplies`. For 16-bit rows and 8-bit blocks past 32
    /// bits (`UInt64` sums); the caller picks a `Sum` wide enough for a block.
    private static func sumAny<Sample: FixedWidthInteger, Sum: FixedWidthInteger>(
        _ p: UnsafePointer<Sample>, width w: Int, factor fx: Int, blocks: Int, channels c: Int, premultiplies: Bool,
        into sums: UnsafeMutablePointer<Sum>
    ) {
        for bx in 0..<blocks {
            for x in (bx * fx)..<min(bx * fx + fx, w) {
                let q = p + x * c
                let a = premultiplies ? Sum(q[c - 1]) : 1
                for k in 0..<c { sums[bx * c + k] &+= Sum(q[k]) &* (premultiplies && k < c - 1 ? a : 1) }
            }
        }
    }

    /// Turns the block sums into the float row at `out` (0–255, colour premultiplied). The 64-bit sums are then
    /// cleared for the next block (they add row by row); the 32-bit ones need no clearing, as
    /// `shrink_box_blocks` writes every block of them.
    private mutating func finishBlock(rows: Int, into out: UnsafeMutablePointer<Float>) {
        // Counted from the first column asked for (its first pixel is a block boundary).
        let c = channels, fx = factorX, w = pixelCount, blocks = columns.count
        // Sample scale: 8-bit sums are already 0–255; 16-bit ones are 257 × that. Premultiplied colour carries
        // one more factor of alpha's maximum (255 or 65535).
        let unit: Float = sixteenBit ? 257 : 1
        let colorUnit: Float = premultiplies ? unit * (sixteenBit ? 65535 : 255) : unit
        let colorChannels = premultiplies ? c - 1 : c
        func finish<Sum: FixedWidthInteger>(_ sums: UnsafeMutableBufferPointer<Sum>) {
            var start = 0
            if c == 4, Sum.self == UInt32.self {
                // Whole blocks four lanes at a time (every block but perhaps the last has fx columns).
                let full = w / fx
                let n = Float(fx * rows)
                let scale = SIMD4<Float>(repeating: 1 / (n * colorUnit)).replacing(
                    with: 1 / (n * unit),
                    where: colorChannels == 3 ? [false, false, false, true] : [true, true, true, true])
                let raw = UnsafeMutableRawPointer(sums.baseAddress!), o = UnsafeMutableRawPointer(out)
                for bx in 0..<full {
                    let v = raw.loadUnaligned(fromByteOffset: bx * 16, as: SIMD4<UInt32>.self)
                    o.storeBytes(of: SIMD4<Float>(v) * scale, toByteOffset: bx * 16, as: SIMD4<Float>.self)
                }
                start = full
            } else if c != 4 && colorChannels == c {
                // No alpha: one scale for every whole block.
                let full = w / fx
                let scale = 1 / (Float(fx * rows) * unit)
                for i in 0..<(full * c) { out[i] = Float(sums[i]) * scale }
                start = full
            }
            for bx in start..<blocks {
                let n = Float((min(bx * fx + fx, w) - bx * fx) * rows)
                let color = 1 / (n * colorUnit), plain = 1 / (n * unit)
                for ch in 0..<c { out[bx * c + ch] = Float(sums[bx * c + ch]) * (ch < colorChannels ? color : plain) }
            }
        }
        if wideSums.isEmpty {
            sums8.withUnsafeMutableBufferPointer { finish($0) }
        } else {
            wideSums.withUnsafeMutableBufferPointer {
                finish($0); $0.update(repeating: 0)
            }
        }
    }
}
