/// Integer box pre-shrink: averages `factorX × factorY` blocks of an 8-bit row stream into float rows,
/// so that the Lanczos stage after it convolves a few taps instead of tens.
///
/// Memory: one accumulator row of `ceil(width / factorX) × channels` 32-bit sums plus one float row.
/// Edge blocks that overhang the image average only the pixels that exist.
struct BoxShrink {
    let factorX: Int
    let factorY: Int
    let inputWidth: Int
    let inputHeight: Int
    let channels: Int
    let outputWidth: Int
    let outputHeight: Int
    private var sums: [UInt32]
    private var rowsInBlock = 0
    /// The float row of the most recently completed block (`outputWidth × channels` samples, then padding).
    private(set) var output: [Float]

    init(inputWidth: Int, inputHeight: Int, channels: Int, factorX: Int, factorY: Int) {
        self.factorX = factorX
        self.factorY = factorY
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.channels = channels
        outputWidth = (inputWidth + factorX - 1) / factorX
        outputHeight = (inputHeight + factorY - 1) / factorY
        sums = [UInt32](repeating: 0, count: outputWidth * channels)
        // Padded by 4 so the resampler may load a 4-lane vector at the last pixel.
        output = [Float](repeating: 0, count: outputWidth * channels + 4)
    }

    /// Adds input row `y`; returns the completed output row index when this row closes a block.
    /// `accumulate` false skips the summing (the block is not needed) but still tracks block boundaries.
    mutating func add(row: UnsafePointer<UInt8>, y: Int, accumulate: Bool) -> Int? {
        if factorX == 1 && factorY == 1 {
            // No shrink: one pass straight to floats.
            if accumulate { Self.convert(row, count: inputWidth * channels, into: &output) }
            return y
        }
        if accumulate { addRow(row) }
        rowsInBlock += 1
        let closes = rowsInBlock == factorY || y == inputHeight - 1
        guard closes else { return nil }
        let rows = rowsInBlock
        rowsInBlock = 0
        if accumulate { finishBlock(rows: rows) }
        return y / factorY
    }

    private static func convert(_ row: UnsafePointer<UInt8>, count: Int, into output: inout [Float]) {
        output.withUnsafeMutableBufferPointer { out in
            for i in 0..<count { out[i] = Float(row[i]) }
        }
    }

    private mutating func addRow(_ row: UnsafePointer<UInt8>) {
        let c = channels, fx = factorX, w = inputWidth
        sums.withUnsafeMutableBufferPointer { sums in
            if fx == 1 {
                for i in 0..<(w * c) { sums[i] &+= UInt32(row[i]) }
                return
            }
            for bx in 0..<outputWidth {
                let x0 = bx * fx, x1 = min(x0 + fx, w)
                for ch in 0..<c {
                    var s: UInt32 = 0
                    var p = x0 * c + ch
                    for _ in x0..<x1 {
                        s &+= UInt32(row[p])
                        p += c
                    }
                    sums[bx * c + ch] &+= s
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
                        out[bx * c + ch] = Float(sums[bx * c + ch]) * inv
                        sums[bx * c + ch] = 0
                    }
                }
            }
        }
    }
}
