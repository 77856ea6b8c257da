import ShrinkCore

/// Rows of a progressive JPEG decoded at 1/8 by ``DCFirstDecoder``: the planes are decoded when the first
/// row is asked for, then handed out as gray8 or rgb8 rows (YCbCr → RGB with JFIF's equations in the
/// 16-bit fixed point libjpeg uses).
///
/// Memory: the decoder's DC values while decoding, then the planes (1 or 3 bytes per output pixel).
package final class JPEGDCRowDecoder: RowDecoding {
    package let size: PixelSize
    package let format: PixelFormat
    package private(set) var nextRow = 0

    private let bytes: ImageBytes
    private let decoder: DCFirstDecoder
    private let strict: Bool
    private let monitor: DecodeMonitor?
    private var planes: [[UInt8]]?
    private var finished = false
    /// Damage the DC-first decoder stepped over (see ``RowDecoding/warnings``).
    package private(set) var warnings: [String] = []

    init(bytes: ImageBytes, decoder: DCFirstDecoder, strict: Bool, monitor: DecodeMonitor?) {
        self.bytes = bytes
        self.decoder = decoder
        self.strict = strict
        self.monitor = monitor
        size = decoder.size
        format = decoder.script.components.count == 1 ? .gray8 : .rgb8
    }

    package func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let n = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: !finished, path: decoder.path)
        if planes == nil {
            let bytes = self.bytes
            planes = try decoder.decodePlanes(
                bytes: bytes.bytes, strict: strict, monitor: monitor, warnings: &warnings,
                release: { bytes.releaseResidentPages(in: $0) })
            bytes.releaseResidentPages()
        }
        let width = size.width
        let p = planes!
        for i in 0..<n {
            let y = row + i, out = buffer.assumingMemoryBound(to: UInt8.self) + i * bytesPerRow
            if p.count == 1 {
                p[0].withUnsafeBufferPointer { out.update(from: $0.baseAddress! + y * width, count: width) }
            } else {
                Self.convert(p[0], p[1], p[2], offset: y * width, count: width, into: out)
            }
        }
        nextRow += n
        return n
    }

    package func finish() throws(ImageError) {
        finished = true
        planes = nil
    }

    // JFIF YCbCr → RGB: R = Y + 1.402 (Cr−128), G = Y − 0.34414 (Cb−128) − 0.71414 (Cr−128),
    // B = Y + 1.772 (Cb−128), each product in 16-bit fixed point, rounded.
    private static let tables: (rCr: [Int32], gCb: [Int32], gCr: [Int32], bCb: [Int32]) = {
        func fix(_ v: Double) -> Int32 { Int32((v * 65536).rounded()) }
        let half: Int32 = 1 << 15
        var rCr = [Int32](repeating: 0, count: 256), gCb = rCr, gCr = rCr, bCb = rCr
        for i in 0..<256 {
            let x = Int32(i - 128)
            rCr[i] = (fix(1.40200) * x + half) >> 16
            bCb[i] = (fix(1.77200) * x + half) >> 16
            gCr[i] = -fix(0.71414) * x
            gCb[i] = -fix(0.34414) * x + half
        }
        return (rCr, gCb, gCr, bCb)
    }()

    private static func convert(
        _ yPlane: [UInt8], _ cbPlane: [UInt8], _ crPlane: [UInt8], offset: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let t = tables
        for x in 0..<count {
            let y = Int32(yPlane[offset + x]), cb = Int(cbPlane[offset + x]), cr = Int(crPlane[offset + x])
            out[3 * x] = UInt8(clamping: y + t.rCr[cr])
            out[3 * x + 1] = UInt8(clamping: y + ((t.gCb[cb] + t.gCr[cr]) >> 16))
            out[3 * x + 2] = UInt8(clamping: y + t.bCb[cb])
        }
    }
}
