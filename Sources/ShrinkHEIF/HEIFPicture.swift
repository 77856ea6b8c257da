import ShrinkCore

/// One decoded tile: Y, Cb and Cr planes at their own sizes (chroma halved per the chroma format) as 8-bit
/// samples, and the colour the bitstream signals. The planes are either the decoder's own picture (dav1d's
/// 8-bit pictures: no copy, released with this object) or a copy (libde265 reuses its pictures; deeper
/// samples are shifted down to 8 bits). Costs its planes (1.5 B/px for 4:2:0).
public final class HEIFPicture {
    /// Plane sizes (Y, Cb, Cr; one plane for monochrome).
    public let sizes: [Size]
    /// Each plane's first row, and the bytes from one row to the next.
    let planes: [UnsafePointer<UInt8>]
    let strides: [Int]
    /// Bits per sample as coded.
    public let bitDepth: Int
    /// Bitstream colour (HEVC VUI, AV1 sequence header): full range, and matrix coefficients (H.273;
    /// 2 = unspecified).
    public let fullRange: Bool
    public let matrix: Int
    private let release: () -> Void

    /// Planes that stay where the decoder put them; `release` gives them back.
    init(sizes: [Size], planes: [UnsafePointer<UInt8>], strides: [Int], bitDepth: Int, fullRange: Bool, matrix: Int,
         release: @escaping () -> Void) {
        self.sizes = sizes
        self.planes = planes
        self.strides = strides
        self.bitDepth = bitDepth
        self.fullRange = fullRange
        self.matrix = matrix
        self.release = release
    }

    /// A copy of planes at `bases` (`strides` apart; 16-bit words in native order when `bitDepth` > 8).
    convenience init(copying bases: [UnsafeRawPointer], strides: [Int], sizes: [Size], bitDepth: Int, fullRange: Bool,
                     matrix: Int) {
        let copies = zip(bases, zip(strides, sizes)).map { base, layout in
            let (stride, size) = layout
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, size.pixelCount))
            Self.copyPlane(base, stride: stride, width: size.width, height: size.height, depth: bitDepth, into: plane)
            return plane
        }
        self.init(sizes: sizes, planes: copies.map { UnsafePointer($0) }, strides: sizes.map(\.width), bitDepth: bitDepth,
                  fullRange: fullRange, matrix: matrix, release: { for plane in copies { plane.deallocate() } })
    }

    deinit { release() }

    /// Row `y` of plane `p`.
    func row(_ p: Int, _ y: Int) -> UnsafePointer<UInt8> { planes[p] + y * strides[p] }

    /// Rows of one plane packed into `out`; samples deeper than 8 bits (16-bit words, native order) shifted
    /// down to 8.
    static func copyPlane(_ base: UnsafeRawPointer, stride: Int, width: Int, height: Int, depth: Int,
                          into out: UnsafeMutablePointer<UInt8>) {
        for y in 0..<height {
            let row = base + y * stride
            if depth <= 8 {
                (out + y * width).update(from: row.assumingMemoryBound(to: UInt8.self), count: width)
            } else {
                let shift = depth - 8
                for x in 0..<width {
                    let v = Int(row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)) >> shift
                    out[y * width + x] = UInt8(min(v, 255))
                }
            }
        }
    }
}
