/// The copyright of an EXIF block, kept alone (imgproxy's `keep_copyright`: metadata stripped but for who owns the
/// picture): IFD0's Copyright (0x8298) and Artist (0x013B) tags, as ASCII, rebuilt into a minimal little-endian TIFF
/// structure of their own. Every read is bounds-checked; a malformed block keeps nothing.
package enum ExifCopyright {
    /// The tags kept.
    static let tags: [UInt16] = [0x013B, 0x8298]

    /// A TIFF structure holding only `tiff`'s Copyright and Artist, or nil when it has neither.
    package static func only(_ tiff: [UInt8]) -> [UInt8]? {
        tiff.withUnsafeBytes { kept(from: $0) }.map(rebuilt)
    }

    /// The Copyright and Artist values of `tiff`'s IFD0, each ending in NUL; nil when it has neither.
    private static func kept(from tiff: UnsafeRawBufferPointer) -> [(tag: UInt16, value: [UInt8])]? {
        guard tiff.count >= 8, let little = TIFFBytes.byteOrder(of: tiff) else { return nil }
        let reader = TIFFBytes(tiff, littleEndian: little)
        func u16(_ at: Int) -> Int? { reader.u16(at) }
        func u32(_ at: Int) -> Int? { reader.u32(at) }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd), count <= 1000 else { return nil }
        var kept: [(tag: UInt16, value: [UInt8])] = []
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { break }
            guard tags.contains(UInt16(tag)), type == 2, n > 0, n <= 65_535 else { continue }
            let start = n <= 4 ? entry + 8 : (u32(entry + 8) ?? -1)
            guard start >= 0, start + n <= tiff.count else { continue }
            var value = Array(tiff[start..<start + n])
            if value.last != 0 { value.append(0) } // ASCII ends in NUL
            kept.append((UInt16(tag), value))
        }
        return kept.isEmpty ? nil : kept.sorted { $0.tag < $1.tag }
    }

    /// A little-endian TIFF structure whose IFD0 holds `kept`, ASCII.
    private static func rebuilt(_ kept: [(tag: UInt16, value: [UInt8])]) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        var out: [UInt8] = [0x49, 0x49] + le16(42) + le32(8) + le16(kept.count)
        var data: [UInt8] = []
        let dataStart = 8 + 2 + kept.count * 12 + 4
        for (tag, value) in kept {
            out += le16(Int(tag)) + le16(2) + le32(value.count)
            if value.count <= 4 {
                out += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                out += le32(dataStart + data.count)
                data += value
                if data.count % 2 == 1 { data.append(0) } // word-aligned values
            }
        }
        return out + le32(0) + data
    }
}
