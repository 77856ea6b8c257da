/// Hand-built PNG files for tests: chunks with real CRCs, so headers can claim anything.
public enum TestPNG {
    /// A PNG with the given IHDR and IDAT payloads (already deflated), ending in IEND.
    public static func file(
        width: Int, height: Int, bitDepth: UInt8 = 8, colorType: UInt8 = 6, interlace: UInt8 = 0,
        idat: [[UInt8]] = [[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]],
        extra: [(String, [UInt8])] = []
    ) -> [UInt8] {
        var ihdr = u32(width) + u32(height)
        ihdr += [bitDepth, colorType, 0, 0, interlace]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", ihdr)
        for (kind, data) in extra { out += chunk(kind, data) }
        for data in idat { out += chunk("IDAT", data) }
        out += chunk("IEND", [])
        return out
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(kind.utf8) + data
        return u32(data.count) + typed + u32(Int(crc32(typed)))
    }

    static func u32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    /// CRC-32 (ISO 3309, as PNG uses).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
