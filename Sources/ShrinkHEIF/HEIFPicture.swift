import ShrinkCore

/// One decoded tile: Y, Cb and Cr planes at their own sizes (chroma halved per the chroma format) as 8-bit
/// samples, or 16-bit words for a deeper picture kept at its depth, and the colour the bitstream signals.
/// The planes are either the decoder's own picture (dav1d's: no copy, released with this object) or a copy
/// (libde265 reuses its pictures; deeper samples are shifted down to 8 bits unless kept). Costs its planes
/// (1.5 samples a pixel for 4:2:0).
package final class HEIFPicture {
    /// Plane sizes (Y, Cb, Cr; one plane for monochrome).
    package let sizes: [PixelSize]
    /// Each plane's first row, and the bytes from one row to the next.
    let planes: [UnsafePointer<UInt8>]
    let strides: [Int]
    /// Bits per sample as coded.
    package let bitDepth: Int
    /// Bytes per stored sample: 2 when a picture deeper than 8 bits is kept at its depth, else 1.
    package let sampleBytes: Int
    /// Bitstream colour (HEVC VUI, AV1 sequence header): full range, and matrix coefficients (H.273;
    /// 2 = unspecified).
    package let fullRange: Bool
    package let matrix: Int
    private let release: () -> Void

    /// Planes that stay where the decoder put them; `release` gives them back.
    init(
        sizes: [PixelSize], planes: [UnsafePointer<UInt8>], strides: [Int], bitDepth: Int, sampleBytes: Int,
        fullRange: Bool,
        matrix: Int, release: @escaping () -> Void
    ) {
        self.sizes = sizes
        self.sampleBytes = sampleBytes
        self.planes = planes
        self.strides = strides
        self.bitDepth = bitDepth
        self.fullRange = fullRange
        self.matrix = matrix
        self.release = release
    }

    /// A copy of planes at `bases` (`strides` apart; 16-bit words in native order when `bitDepth` > 8), kept
    /// at 16 bits or rounded to 8 as `depth` says.
    convenience init(
        copying bases: [UnsafeRawPointer], strides: [Int], sizes: [PixelSize], bitDepth: Int, depth: HEIFSampleDepth,
        fullRange: Bool, matrix: Int
    ) {
        let sampleBytes = depth == .kept && bitDepth > 8 ? 2 : 1
        var full = fullRange
        if case .narrowed(let range?) = depth { full = range }
        let copies = zip(bases, zip(strides, sizes)).enumerated().map { index, planeLayout in
            let (base, (stride, size)) = planeLayout
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, size.pixelCount * sampleBytes))
            if sampleBytes == 2 {
                for y in 0..<size.height {
                    (plane + y * size.width * 2).update(
                        from: (base + y * stride).assumingMemoryBound(to: UInt8.self), count: size.width * 2)
                }
            } else {
                Self.copyPlane(
                    base, stride: stride, width: size.width, height: size.height, depth: bitDepth, fullRange: full,
                    chroma: index > 0, into: plane)
            }
            return plane
        }
        self.init(
            sizes: sizes, planes: copies.map { UnsafePointer($0) }, strides: sizes.map { $0.width * sampleBytes },
            bitDepth: bitDepth, sampleBytes: sampleBytes, fullRange: fullRange, matrix: matrix,
            release: { for plane in copies { plane.deallocate() } })
    }

    deinit { release() }

    /// Row `y` of plane `p` (``sampleBytes`` a sample).
    func row(_ p: Int, _ y: Int) -> UnsafePointer<UInt8> { planes[p] + y * strides[p] }

    /// Rows of one plane packed into `out`; samples deeper than 8 bits (16-bit words, native order) rounded
    /// to 8 bits: scaled by 255 / (2^depth − 1) when `fullRange` (`chroma`: about its centre, 2^(depth − 1)
    /// becoming 128, as the matrix reads it), shifted to the nearest level otherwise.
    static func copyPlane(
        _ base: UnsafeRawPointer, stride: Int, width: Int, height: Int, depth: Int, fullRange: Bool,
        chroma: Bool = false, into out: UnsafeMutablePointer<UInt8>
    ) {
        for y in 0..<height {
            let row = base + y * stride
            if depth <= 8 {
                (out + y * width).update(from: row.assumingMemoryBound(to: UInt8.self), count: width)
            } else {
                let shift = depth - 8, half = 1 << (shift - 1), top = (1 << depth) - 1, mid = 1 << (depth - 1)
                for x in 0..<width {
                    let s = Int(row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                    let v =
                        !fullRange
                        ? (s + half) >> shift
                        : chroma
                            ? max(0, 128 + Int((Double(s - mid) * 255 / Double(top)).rounded()))
                            : (s * 255 + top / 2) / top
                    out[y * width + x] = UInt8(min(v, 255))
                }
            }
        }
    }
}
