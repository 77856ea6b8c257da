#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 2×2 output of an 8×8 inverse DCT: each output sample is the mean of one 4×4 quadrant of the full
/// IDCT, so only coefficients 0, 1, 3, 5 and 7 of each axis contribute (the even ones average to zero
/// over a quadrant). This is the reduced IDCT libjpeg uses for chroma scaled by 2 at 1/8.
final class ReducedIDCT {
    /// Natural positions of the 25 coefficients that contribute.
    static let used: [Int] = [0, 1, 3, 5, 7].flatMap { v in [0, 1, 3, 5, 7].map { u in v * 8 + u } }

    /// weight(o, u): C(u)/2 × the mean of cos((2x+1)uπ/16) over x in quadrant o (0 or 1).
    static func weight(_ o: Int, _ u: Int) -> Double {
        let cu = u == 0 ? 1 / 2.0.squareRoot() : 1.0
        var sum = 0.0
        for x in (4 * o)..<(4 * o + 4) { sum += cos(Double(2 * x + 1) * Double(u) * Double.pi / 16) }
        return cu / 2 * sum / 4
    }

    /// For each used coefficient and output sample (four floats per coefficient): the product of both axes'
    /// weights and the quantiser.
    private let kernel = UnsafeMutablePointer<Float>.allocate(capacity: 100)
    private let positions = UnsafeMutablePointer<Int>.allocate(capacity: 25)

    init(quant: [UInt16]) {
        var k = [Float](repeating: 0, count: 100)
        for oy in 0..<2 {
            for ox in 0..<2 {
                for (i, pos) in Self.used.enumerated() {
                    let v = pos / 8, u = pos % 8
                    k[i * 4 + oy * 2 + ox] = Float(Self.weight(oy, v) * Self.weight(ox, u) * Double(quant[pos]))
                }
            }
        }
        kernel.initialize(from: k, count: 100)
        positions.initialize(from: Self.used, count: 25)
    }

    deinit {
        kernel.deallocate()
        positions.deallocate()
    }

    /// Writes the block's four samples to `out` (two rows `stride` apart), clipped to `columns` × `rows`.
    func transform(
        _ coef: UnsafePointer<Int32>, into out: UnsafeMutablePointer<UInt8>, stride: Int, columns: Int, rows: Int
    ) {
        // kernel is stored coefficient-major in groups of four outputs, so one SIMD4 multiply-add per coefficient.
        let k = UnsafeRawPointer(kernel), used = positions
        var sum = SIMD4<Float>(repeating: 128)
        for i in 0..<25 {
            let c = coef[used[i]]
            if c != 0 { sum += k.loadUnaligned(fromByteOffset: i * 16, as: SIMD4<Float>.self) * Float(c) }
        }
        for o in 0..<4 where o / 2 < rows && o % 2 < columns {
            let v = sum[o]
            out[(o / 2) * stride + o % 2] = v <= 0 ? 0 : UInt8(clamping: Int(v + 0.5))
        }
    }
}
