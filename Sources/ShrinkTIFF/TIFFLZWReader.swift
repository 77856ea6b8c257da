import CShrinkTIFF
import ShrinkCore

/// The strips and tiles of an LZW-compressed page decoded by Shrink's LZW decoder (``LZWDecoder``, most significant
/// bit first, TIFF's early change) straight from the mapped file, in place of libtiff's scanline and tile readers:
/// a strip's codes read where they lie a row at a time into the caller's row, a tile's whole into the caller's tile
/// buffer, the horizontal predictor undone over each row as it is written. The same samples as libtiff's, in less
/// time (BENCHMARKS.md, formats).
///
/// Serves pages of 8-bit contiguous samples, fill order 1, predictor 1 or 2 (``init(page:handle:bytes:)`` is nil for
/// the others); a strip or tile written in the pre-TIFF 6.0 "old-style" LZW (least significant bit first) is read by
/// libtiff. A strip's rows must be asked for in order.
///
/// Memory: ``LZWDecoder/heldBytes``, one decoder at a time.
final class TIFFLZWReader {
    private let bytes: ImageBytes
    private let samples: Int
    private let rowsPerStrip: Int
    private let tile: PixelSize?
    private let predicts: Bool
    /// Bytes of one row of the page (strips) or of a tile.
    private let rowBytes: Int
    private var decoder: LZWDecoder?
    private var strip = -1
    /// The current strip is old-style: libtiff reads its rows.
    private var oldStyle = false
    /// Why the last read failed.
    private(set) var failure = ""

    /// A reader of `page` (selected in `handle`), or nil when it is not one this reads.
    init?(page: TIFFPage, handle: TIFFHandle, bytes: ImageBytes) {
        let predictor = Int(handle.u16(TIFFTag.predictor) ?? 1)
        guard page.compression == 5, page.bitsPerSample == 8, page.planar == 1 || page.samplesPerPixel == 1,
            handle.u16(TIFFTag.fillOrder) ?? 1 == 1, predictor == 1 || predictor == 2, page.rowsPerStrip > 0
        else { return nil }
        self.bytes = bytes
        samples = page.samplesPerPixel
        rowsPerStrip = page.rowsPerStrip
        tile = page.tile
        rowBytes = (page.tile?.width ?? page.size.width) * page.samplesPerPixel
        predicts = predictor == 2
    }

    /// Decodes row `y` of a stripped page into `out` (a row of the page's samples); false, with ``failure`` said,
    /// when the strip's data is corrupt or ends before the row does.
    func read(row y: Int, into out: UnsafeMutablePointer<UInt8>, handle: TIFFHandle) -> Bool {
        if y / rowsPerStrip != strip {
            strip = y / rowsPerStrip
            guard let coded = Self.coded(handle, x: 0, y: y, bytes: bytes) else {
                decoder = nil
                failure = "strip \(strip) lies outside the file"
                return false
            }
            oldStyle = Self.isOldStyle(coded)
            decoder = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
            decoder?.feed(coded)
        }
        if oldStyle {
            guard cshrink_tiff_read_scanline(handle.raw, UInt32(y), out) == 1 else {
                failure = handle.lastError
                return false
            }
            return true
        }
        guard let decoder else { return false }
        return decode(decoder, into: out, rows: 1, what: "strip \(strip)", at: "row \(y)")
    }

    /// Decodes the tile holding pixel (`x`, `y`) of a tiled page into `out` (a whole tile's samples); false, with
    /// ``failure`` said, when its data is corrupt or ends before the tile does.
    func read(tileAt x: Int, _ y: Int, into out: UnsafeMutablePointer<UInt8>, handle: TIFFHandle) -> Bool {
        guard let tile else { return false }
        guard let coded = Self.coded(handle, x: x, y: y, bytes: bytes) else {
            failure = "the tile at \(x), \(y) lies outside the file"
            return false
        }
        if Self.isOldStyle(coded) {
            guard cshrink_tiff_read_tile(handle.raw, UInt32(x), UInt32(y), out, rowBytes * tile.height) >= 0 else {
                failure = handle.lastError
                return false
            }
            return true
        }
        let decoder = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
        decoder.feed(coded)
        self.decoder = decoder
        return decode(decoder, into: out, rows: tile.height, what: "the tile at \(x), \(y)", at: "its end")
    }

    /// Decodes `rows` rows of ``rowBytes`` into `out` and undoes the predictor over each.
    private func decode(
        _ decoder: LZWDecoder, into out: UnsafeMutablePointer<UInt8>, rows: Int, what: String, at place: String
    ) -> Bool {
        switch decoder.decode(into: out, count: rowBytes * rows) {
        case .filled: break
        case .needsInput, .ended:
            failure = "LZW data of \(what) ends before \(place)"
            return false
        case .invalidCode(let code):
            failure = "LZW data of \(what) is corrupt before \(place) (code \(code) is not in the table)"
            return false
        }
        if predicts {
            for r in 0..<rows { cshrink_tiff_undo_predictor8(out + r * rowBytes, rowBytes, Int32(samples)) }
        }
        return true
    }

    /// The coded bytes of the strip or tile holding pixel (`x`, `y`), cut at the file's end; nil when it starts past
    /// it.
    private static func coded(_ handle: TIFFHandle, x: Int, y: Int, bytes: ImageBytes) -> UnsafeRawBufferPointer? {
        let offset = cshrink_tiff_block_offset(handle.raw, UInt32(x), UInt32(y))
        let count = cshrink_tiff_block_bytes(handle.raw, UInt32(x), UInt32(y))
        guard offset < UInt64(bytes.count) else { return nil }
        let end = Int(min(UInt64(bytes.count), offset &+ min(count, UInt64(bytes.count))))
        return UnsafeRawBufferPointer(rebasing: bytes.bytes[Int(offset)..<max(Int(offset), end)])
    }

    /// libtiff's test for the old-style (LSB-first) coding: a first byte of 0 and an odd second byte.
    private static func isOldStyle(_ coded: UnsafeRawBufferPointer) -> Bool {
        coded.count >= 2 && coded[0] == 0 && coded[1] & 1 == 1
    }
}
