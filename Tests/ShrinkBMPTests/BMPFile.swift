/// BMP and ICO files written byte by byte for the tests, so that each header field is the one a test means.
enum BMPFile {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// A BMP file: the 14-byte file header, `dib` (a DIB header with its masks and palette), then `pixels`.
    static func file(dib: [UInt8], pixels: [UInt8]) -> [UInt8] {
        let offset = 14 + dib.count
        return Array("BM".utf8) + le32(offset + pixels.count) + le32(0) + le32(offset) + dib + pixels
    }

    /// A 40-byte BITMAPINFOHEADER (or a longer one, `size`, padded with `extra` and zeros).
    static func info(
        width: Int, height: Int, bits: Int, compression: Int = 0, colours: Int = 0, size: Int = 40,
        extra: [UInt8] = []
    ) -> [UInt8] {
        var h =
            le32(size) + le32(width) + le32(height) + le16(1) + le16(bits) + le32(compression) + le32(0)
            + le32(2835) + le32(2835) + le32(colours) + le32(0)
        h += extra
        h += [UInt8](repeating: 0, count: max(0, size - h.count))
        return h
    }

    /// Palette entries (B, G, R, 0) from RGB triples.
    static func palette(_ rgb: [(UInt8, UInt8, UInt8)]) -> [UInt8] { rgb.flatMap { [$0.2, $0.1, $0.0, 0] } }

    /// Rows padded to 4 bytes.
    static func padded(_ rows: [[UInt8]]) -> [UInt8] {
        rows.flatMap { $0 + [UInt8](repeating: 0, count: (4 - $0.count % 4) % 4) }
    }

    /// An ICO file of `entries` (width, height, bits, data).
    static func icon(_ entries: [(Int, Int, Int, [UInt8])], type: Int = 1) -> [UInt8] {
        var out = le16(0) + le16(type) + le16(entries.count)
        var offset = 6 + 16 * entries.count
        for (w, h, bits, data) in entries {
            out += [UInt8(w & 0xFF), UInt8(h & 0xFF), 0, 0] + le16(1) + le16(bits) + le32(data.count) + le32(offset)
            offset += data.count
        }
        return out + entries.flatMap { $0.3 }
    }
}
