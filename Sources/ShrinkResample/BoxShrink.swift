import ShrinkCore

/// The first stage of the resampler: converts each incoming row of 8- or 16-bit samples to floats on the
/// 0–255 scale (premultiplying colour by alpha when the last channel is alpha, so transparent pixels add
/// no colour and edges get no dark fringes), and for large reductions averages `factorX × factorY` blocks
/// so that the Lanczos stage after it convolves a few taps instead of tens.
///
/// Memory: a converted row of the input width and, when shrinking, one row of block sums of
/// `ceil(width / factorX)` pixels — all floats. Edge blocks that overhang the image average only the
/// pixels that exist.
struct BoxShrink {
    let factorX: Int
    let factorY: Int
    let inputWidth: Int
    let inputHeight: Int
    let channels: Int
    let sixteenBit: Bool
    let premultiplies: Bool
    let outputWidth: Int
    let outputHeight: Int
    private var converted: [Float]
    private var sums: [Float]
    private var rowsInBlock = 0
    /// The float row of the most recently completed block (`outputWidth × channels` samples, then padding).
    private(set) var output: [Float]

    init(inputWidth: Int, inputHeight: Int, format: PixelFormat, factorX: Int, factorY: Int) {
        self.factorX = factorX
        self.factorY = factorY
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        channels = format.channels
        sixteenBit = format == .rgba16
        premultiplies = format == .rgba8 || format == .rgba16
        outputWidth = (inputWidth + factorX - 1) / factorX
        outputHeight = (inputHeight + factorY - 1) / factorY
        let shrinks = factorX > 1 || factorY > 1
        converted = shrinks ? [Float](repeating: 0, count: inputWidth * channels) : []
        sums = shrinks ? [Float](repeating: 0, count: outputWidth * channels) : []
        // Padded by 4 so the resampler may load a 4-lane vector at the last pixel.
        output = [Float](repeating: 0, count: outputWidth * channels + 4)
    }

    /// Adds input row `y`; returns the completed output row index when this row closes a block.
    /// `accumulate` false skips the work (the block is not needed) but still tracks block boundaries.
    mutating func add(row: UnsafeRawPointer, y: Int, accumulate: Bool) -> Int? {
        if factorX == 1 && factorY == 1 {
            if accumulate { convert(row, into: &output) }
            return y
        }
        if accumulate {
            convert(row, into: &converted)
            addConverted()
        }
        rowsInBlock += 1
        let closes = rowsInBlock == factorY || y == inputHeight - 1
        guard closes else { return nil }
        let rows = rowsInBlock
        rowsInBlock = 0
        if accumulate { finishBlock(rows: rows) }
        return y / factorY
    }

    /// One row to floats on the 0–255 scale, colour premultiplied by alpha when there is alpha.
    private func convert(_ row: UnsafeRawPointer, into out: inout [Float]) {
        let n = inputWidth * channels, c = channels
        out.withUnsafeMutableBufferPointer { out in
            if sixteenBit {
                let p = row.assumingMemoryBound(to: UInt16.self)
                for i in 0..<n { out[i] = Float(p[i]) * (1 / 257) }
            } else {
                let p = row.assumingMemoryBound(to: UInt8.self)
                for i in 0..<n { out[i] = Float(p[i]) }
            }
            guard premultiplies else { return }
            var i = 0
            while i < n {
                let a = out[i + c - 1] * (1 / 255)
                for k in 0..<(c - 1) { out[i + k] *= a }
                i += c
            }
        }
    }

    private mutating func addConverted() {
        let c = channels, fx = factorX, w = inputWidth
        converted.withUnsafeBufferPointer { row in
            sums.withUnsafeMutableBufferPointer { sums in
                for bx in 0..<outputWidth {
                    let x0 = bx * fx, x1 = min(x0 + fx, w)
                    for ch in 0..<c {
                        var s: Float = 0
                        var p = x0 * c + ch
                        for _ in x0..<x1 {
                            s += row[p]
                            p += c
                        }
                        sums[bx * c + ch] += s
                    }
                }
            }
        }
    }

    private mutating func finishBlock(rows: Int) {
        let c = channels, fx = factorX, w = inputWidth
        sums.withUnsafeMutableBufferPointer { sums in
            output.withUnsafeMutableBufferPointer { out in
                for bx in 0..<outputWidth {
                    let cols = min(bx * fx + fx, w) - bx * fx
                    let inv = 1 / Float(cols * rows)
                    for ch in 0..<c {
                        out[bx * c + ch] = sums[bx * c + ch] * inv
                        sums[bx * c + ch] = 0
                    }
                }
            }
        }
    }
}
