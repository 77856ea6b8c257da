/// Reads the few EXIF fields Shrink plans with from a TIFF structure (the payload of a JPEG `APP1 Exif`
/// segment after its 6-byte prefix, or of a PNG `eXIf` chunk): the orientation and the byte range of the
/// embedded JPEG thumbnail. Every read is bounds-checked; malformed EXIF yields empty fields, never a trap.
public struct ExifReader: Sendable {
    /// Tag 0x0112 as stored (1–8 normally; 0 and other values appear in the wild), when present.
    public private(set) var orientationValue: Int?
    /// The embedded thumbnail's bytes, as offsets into the TIFF data, when IFD1 points at a JPEG in range.
    public private(set) var thumbnailRange: Range<Int>?
    /// Offset of the orientation tag's 2-byte value in the TIFF data, when present.
    public private(set) var orientationValueOffset: Int?
    /// True for little-endian ("II") TIFF data.
    public private(set) var isLittleEndian = false

    /// The orientation to apply: `.up` when the tag is absent or invalid.
    public var orientation: Orientation { Orientation(exifValue: orientationValue ?? 1) }

    /// Parses `tiff`. Only IFD0 and IFD1 are read, so a cyclic IFD chain cannot loop.
    public init(tiff: UnsafeRawBufferPointer) {
        guard tiff.count >= 8 else { return }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd0 = u32(4) else { return }
        isLittleEndian = little

        // Returns the value of each wanted tag found in the IFD, and the offset of the next IFD.
        var valueOffsets: [Int: Int] = [:]
        func readIFD(_ offset: Int, wanted: Set<Int>) -> (values: [Int: Int], next: Int?) {
            guard let count = u16(offset), count <= 1000 else { return ([:], nil) }
            var values: [Int: Int] = [:]
            for i in 0..<count {
                let entry = offset + 2 + i * 12
                guard let tag = u16(entry), let type = u16(entry + 2) else { return (values, nil) }
                guard wanted.contains(tag) else { continue }
                switch type {
                case 3:                                   // SHORT, left-justified in the value field
                    values[tag] = u16(entry + 8)
                    valueOffsets[tag] = entry + 8
                case 4: values[tag] = u32(entry + 8)     // LONG
                default: continue
                }
            }
            let next = u32(offset + 2 + count * 12)
            return (values, next == 0 ? nil : next)
        }

        let first = readIFD(ifd0, wanted: [0x0112])
        orientationValue = first.values[0x0112]
        orientationValueOffset = orientationValue == nil ? nil : valueOffsets[0x0112]
        guard let ifd1 = first.next, ifd1 != ifd0 else { return }
        let second = readIFD(ifd1, wanted: [0x0201, 0x0202])
        if let start = second.values[0x0201], let length = second.values[0x0202],
           start > 0, length > 0, start <= tiff.count, length <= tiff.count - start {
            thumbnailRange = start ..< start + length
        }
    }

    /// A copy of `tiff` whose orientation tag (if any) reads 1.
    public static func settingOrientationUp(_ tiff: [UInt8]) -> [UInt8] {
        let reader = tiff.withUnsafeBytes { ExifReader(tiff: $0) }
        guard let at = reader.orientationValueOffset else { return tiff }
        var out = tiff
        out[at] = reader.isLittleEndian ? 1 : 0
        out[at + 1] = reader.isLittleEndian ? 0 : 1
        return out
    }
}
