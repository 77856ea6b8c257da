import CShrinkTIFF
import ShrinkCore

/// The rows of an LZW-compressed stripped page decoded by Shrink's LZW decoder (``LZWDecoder``, most significant
/// bit first, TIFF's early change) straight from the mapped file, in place of libtiff's scanline reader: each strip's
/// codes read where they lie, a row at a time into the caller's row, the horizontal predictor undone in the same
/// pass over it. The same rows as libtiff's, in less time (BENCHMARKS.md, formats).
///
/// Serves pages of 8-bit contiguous samples, fill order 1, predictor 1 or 2 (``init(page:handle:bytes:)`` is nil for
/// the others); a strip written in the pre-TIFF 6.0 "old-style" LZW (least significant bit first) is read by
/// libtiff's scanline reader. Rows must be asked for in order.
///
/// Memory: the decoder's table and carry-over, about 70 KiB.
final class TIFFLZWStrips {
    private let bytes: ImageBytes
    private let rowBytes: Int
    private let samples: Int
    private let rowsPerStrip: Int
    private let predicts: Bool
    private var decoder: LZWDecoder?
    private var strip = -1
    /// The current strip is old-style: libtiff reads its rows.
    private var oldStyle = false
    /// Why the last row could not be decoded.
    private(set) var failure = ""

    /// A reader of `page` (selected in `handle`), or nil when it is not one this reads.
    init?(page: TIFFPage, handle: TIFFHandle, bytes: ImageBytes) {
        let predictor = Int(handle.u16(TIFFTag.predictor) ?? 1)
        guard page.compression == 5, page.tile == nil, page.bitsPerSample == 8,
            page.planar == 1 || page.samplesPerPixel == 1,
            handle.u16(TIFFTag.fillOrder) ?? 1 == 1, predictor == 1 || predictor == 2, page.rowsPerStrip > 0
        else { return nil }
        self.bytes = bytes
        samples = page.samplesPerPixel
        rowBytes = page.size.width * page.samplesPerPixel
        rowsPerStrip = page.rowsPerStrip
        predicts = predictor == 2
    }

    /// Decodes row `y` into `out` (``rowBytes`` bytes); false, with ``failure`` said, when the strip's data is
    /// corrupt or ends before the row does.
    func read(row y: Int, into out: UnsafeMutablePointer<UInt8>, handle: TIFFHandle) -> Bool {
        if y / rowsPerStrip != strip {
            strip = y / rowsPerStrip
            guard let coded = Self.coded(handle, row: y, bytes: bytes) else {
                failure = "strip \(strip) lies outside the file"
                return false
            }
            oldStyle = Self.isOldStyle(coded)
            let decoder = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
            decoder.feed(coded)
            self.decoder = decoder
        }
        if oldStyle {
            guard cshrink_tiff_read_scanline(handle.raw, UInt32(y), out) == 1 else {
                failure = handle.lastError
                return false
            }
            return true
        }
        guard let decoder else { return false }
        switch decoder.decode(into: out, count: rowBytes) {
        case .filled: break
        case .needsInput, .ended:
            failure = "LZW data of strip \(strip) ends before row \(y)"
            return false
        case .invalidCode(let code):
            failure = "LZW data of strip \(strip) is corrupt at row \(y) (code \(code) is not in the table)"
            return false
        }
        if predicts { Self.undoPredictor(out, count: rowBytes, samples: samples) }
        return true
    }

    /// The coded bytes of the strip holding row `y`, cut at the file's end; nil when the strip starts past it.
    private static func coded(_ handle: TIFFHandle, row y: Int, bytes: ImageBytes) -> UnsafeRawBufferPointer? {
        let offset = cshrink_tiff_block_offset(handle.raw, 0, UInt32(y))
        let count = cshrink_tiff_block_bytes(handle.raw, 0, UInt32(y))
        guard offset < UInt64(bytes.count) else { return nil }
        let end = Int(min(UInt64(bytes.count), offset &+ min(count, UInt64(bytes.count))))
        return UnsafeRawBufferPointer(rebasing: bytes.bytes[Int(offset)..<max(Int(offset), end)])
    }

    /// libtiff's test for the old-style (LSB-first) coding: a first byte of 0 and an odd second byte.
    private static func isOldStyle(_ coded: UnsafeRawBufferPointer) -> Bool {
        coded.count >= 2 && coded[0] == 0 && coded[1] & 1 == 1
    }

    /// Undoes horizontal differencing: each sample plus the same sample of the pixel before it.
    static func undoPredictor(_ row: UnsafeMutablePointer<UInt8>, count: Int, samples: Int) {
        guard count > samples else { return }
        switch samples {
        case 3:
            var r = row[0], g = row[1], b = row[2]
            var i = 3
            while i + 2 < count {
                r &+= row[i]
                g &+= row[i + 1]
                b &+= row[i + 2]
                row[i] = r
                row[i + 1] = g
                row[i + 2] = b
                i += 3
            }
        case 1:
            var v = row[0]
            for i in 1..<count {
                v &+= row[i]
                row[i] = v
            }
        default:
            for i in samples..<count { row[i] &+= row[i - samples] }
        }
    }
}
