import CShrinkResample
import Testing

/// The C kernels (`kernels.c`, built for AVX2 and for the baseline) against plain Swift doing the same float
/// operations in the same order: equal bit for bit, so a thumbnail is the same on every CPU and the same as
/// before the loops moved to C. The inputs are random floats, windows of every length up to the stride, and
/// windows at the row's end that must be read tap by tap.
@Suite struct ResampleKernelTests {
    @Test(arguments: [8, 16, 24, 40])
    func horizontalRowMatchesScalarReferenceBitForBit(stride: Int) {
        var g = SeededGenerator(state: UInt64(stride))
        let inputCount = 301, outputWidth = 97
        let input = (0..<inputCount).map { _ in Float.random(in: 0...255, using: &g) }
        var start = [Int](), count = [Int](), weights = [Float](repeating: 0, count: outputWidth * stride)
        for x in 0..<outputWidth {
            let n = 1 + x % stride
            // The last windows end at the row's end, so start + stride passes it: the tap-by-tap path.
            let s = x < outputWidth - 6 ? (x * 3) % (inputCount - stride) : inputCount - n
            start.append(s)
            count.append(n)
            for k in 0..<n { weights[x * stride + k] = Float.random(in: -0.3...1, using: &g) }
        }
        var out = [Float](repeating: .nan, count: outputWidth)
        shrink_resample_row1(input, inputCount, &out, outputWidth, start, count, weights, stride)
        for x in 0..<outputWidth {
            let w = x * stride, p = start[x]
            var expected: Float
            if p + stride <= inputCount {
                var lanes = [Float](repeating: 0, count: 8)
                for k in Swift.stride(from: 0, to: stride, by: 8) {
                    for l in 0..<8 { lanes[l] = lanes[l] + weights[w + k + l] * input[p + k + l] }
                }
                expected =
                    ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]))
            } else {
                var s0: Float = 0, s1: Float = 0, k = 0
                while k + 1 < count[x] {
                    s0 = s0 + weights[w + k] * input[p + k]
                    s1 = s1 + weights[w + k + 1] * input[p + k + 1]
                    k += 2
                }
                if k < count[x] { s0 = s0 + weights[w + k] * input[p + k] }
                expected = s0 + s1
            }
            #expect(out[x].bitPattern == expected.bitPattern, "output \(x): \(out[x]) against \(expected)")
        }
    }

    /// Rows wider than the columns filtered (a span of a wider box row), and windows longer than the kernel's
    /// list of row pointers (64), which it then finds row by row.
    @Test(arguments: [(13, 203, 203), (13, 203, 251), (70, 67, 67)])
    func verticalColumnsMatchScalarReferenceBitForBit(ringRows: Int, width: Int, rowStride: Int) {
        var g = SeededGenerator(state: 7)
        let ring = (0..<ringRows * rowStride).map { _ in Float.random(in: 0...255, using: &g) }
        let weights = (0..<ringRows).map { _ in Float.random(in: -0.3...1, using: &g) }
        for (start, count) in [(0, ringRows), (9, 11), (ringRows - 1, 1), (5, 7), (3, ringRows - 2)] {
            var acc = [Float](repeating: .nan, count: width)
            shrink_resample_columns(ring, ringRows, rowStride, width, start, count, weights, &acc)
            for i in 0..<width {
                var expected: Float = 0
                for k in 0..<count { expected = expected + weights[k] * ring[((start + k) % ringRows) * rowStride + i] }
                #expect(acc[i].bitPattern == expected.bitPattern, "start \(start), count \(count), column \(i)")
            }
        }
    }

    /// The 8-bit rounding of a filtered row, vectorised in C, gives what the scalar Swift rule gives: + 0.5,
    /// truncated, clamped — at the edges (−0.5, 0.49, 254.5, 255) and over random values.
    @Test func quantizeMatchesScalarRule() {
        var g = SeededGenerator(state: 11)
        let edges: [Float] = [
            -1000, -0.5, -0.49, 0, 0.49, 0.5, 1.4999, 1.5, 127.5, 254.49, 254.5, 255, 255.4, 300, 1e9,
        ]
        let values = edges + (0..<1000).map { _ in Float.random(in: -20...275, using: &g) }
        var out = [UInt8](repeating: 7, count: values.count)
        shrink_resample_quantize8(values, values.count, &out)
        for (i, value) in values.enumerated() {
            let v = value + 0.5
            let expected: UInt8 = v <= 0 ? 0 : v >= 255 ? 255 : UInt8(v)
            #expect(out[i] == expected, "\(value)")
        }
    }

    /// Box sums summed down per pixel (whole vectors) and then across blocks equal the sums taken block by
    /// block, for RGBA premultiplied (colour × alpha, alpha as itself), RGB and gray, odd widths, factors 1–7.
    @Test(arguments: [(4, true), (3, false), (1, false), (4, false)])
    func boxSumsDownThenAcrossMatchBlockSums(channels c: Int, premultiply: Bool) {
        var g = SeededGenerator(state: 5)
        for (width, factor, rows) in [(37, 3, 3), (64, 4, 2), (9, 7, 5), (1, 1, 1), (101, 2, 1), (16, 5, 4)] {
            let data = (0..<width * c * rows).map { _ in UInt8.random(in: 0...255, using: &g) }
            // Left over from an earlier block: the first row stores over it.
            var pixelSums = (0..<width * c).map { _ in UInt32.random(in: 0...UInt32.max, using: &g) }
            for r in 0..<rows {
                data.withUnsafeBufferPointer {
                    shrink_box_accumulate8(
                        $0.baseAddress! + r * width * c, width, c, premultiply ? 1 : 0, r == 0 ? 1 : 0, &pixelSums)
                }
            }
            let blocks = (width + factor - 1) / factor
            var sums = [UInt32](repeating: 99, count: blocks * c)
            shrink_box_blocks(pixelSums, width, c, factor, &sums)
            for b in 0..<blocks {
                for k in 0..<c {
                    var expected: UInt32 = 0
                    for r in 0..<rows {
                        for x in (b * factor)..<min(b * factor + factor, width) {
                            let q = (r * width + x) * c
                            let alpha = premultiply && k < c - 1 ? UInt32(data[q + c - 1]) : 1
                            expected += UInt32(data[q + k]) * alpha
                        }
                    }
                    #expect(sums[b * c + k] == expected, "width \(width) factor \(factor) block \(b) channel \(k)")
                }
            }
        }
    }
}
