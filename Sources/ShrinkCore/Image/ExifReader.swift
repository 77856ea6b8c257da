/// Reads the few EXIF fields Shrink plans with from a TIFF structure (the payload of a JPEG `APP1 Exif`
/// segment after its 6-byte prefix, or of a PNG `eXIf` chunk): the orientation and the byte range of the
/// embedded JPEG thumbnail. Every read is bounds-checked; malformed EXIF yields empty fields, never a trap.
package struct ExifReader: Sendable {
    /// Tag 0x0112 as stored (1–8 normally; 0 and other values appear in the wild), when present.
    package private(set) var orientationValue: Int?
    /// The embedded thumbnail's bytes, as offsets into the TIFF data, when IFD1 points at a JPEG in range.
    package private(set) var thumbnailRange: Range<Int>?
    /// Where the orientation tag's value sits in the TIFF data and how many bytes it takes (1, 2 or 4: the
    /// tag's own integer type), when present.
    package private(set) var orientationField: (offset: Int, width: Int)?
    /// True for little-endian ("II") TIFF data.
    package private(set) var isLittleEndian = false
    /// What was wrong with the block, when something was (no TIFF header, IFD0 out of range): the fields
    /// then read as absent. Decoders report it as a warning; the pixels are unaffected.
    package private(set) var problem: String?

    /// The orientation to apply: `.up` when the tag is absent or invalid.
    package var orientation: ImageOrientation { ImageOrientation(exifValue: orientationValue ?? 1) }

    /// Parses `tiff`. Only IFD0 and IFD1 are read, so a cyclic IFD chain cannot loop. The orientation is
    /// read whatever integer type the writer stored it as (SHORT is the standard; BYTE, SSHORT, LONG and
    /// SLONG occur in real files), in either byte order, from IFD0 only (as Pillow's `exif_transpose`).
    package init(tiff: UnsafeRawBufferPointer) {
        guard tiff.count >= 8 else {
            problem = "EXIF block is too short (\(tiff.count) bytes) to hold a TIFF header"
            return
        }
        guard let little = TIFFBytes.byteOrder(of: tiff) else {
            problem = "EXIF block has no TIFF byte-order mark"
            return
        }
        let reader = TIFFBytes(tiff, littleEndian: little)
        func u16(_ at: Int) -> Int? { reader.u16(at) }
        func u32(_ at: Int) -> Int? { reader.u32(at) }
        guard u16(2) == 42, let ifd0 = u32(4) else {
            problem = "EXIF block's TIFF header is malformed"
            return
        }
        isLittleEndian = little

        // The value of each wanted tag found in the IFD (integer types, first element, held in the entry's
        // value field), where it is stored, and the offset of the next IFD.
        func readIFD(_ offset: Int, wanted: Set<Int>) -> (
            values: [Int: (value: Int, offset: Int, width: Int)], next: Int?
        )? {
            guard let count = u16(offset), count <= 1000 else { return nil }
            var values: [Int: (value: Int, offset: Int, width: Int)] = [:]
            for i in 0..<count {
                let entry = offset + 2 + i * 12
                // a cut IFD: what it has
                guard entry + 12 <= tiff.count, let tag = u16(entry), let type = u16(entry + 2) else { break }
                guard wanted.contains(tag) else { continue }
                let at = entry + 8
                switch type {
                case 1: values[tag] = (Int(tiff[at]), at, 1) // BYTE
                case 6: values[tag] = (Int(Int8(bitPattern: tiff[at])), at, 1) // SBYTE
                case 3: if let v = u16(at) { values[tag] = (v, at, 2) } // SHORT
                case 8: if let v = u16(at) { values[tag] = (Int(Int16(truncatingIfNeeded: v)), at, 2) } // SSHORT
                case 4: if let v = u32(at) { values[tag] = (v, at, 4) } // LONG
                case 9: if let v = u32(at) { values[tag] = (Int(Int32(truncatingIfNeeded: v)), at, 4) } // SLONG
                default: continue
                }
            }
            let next = u32(offset + 2 + count * 12)
            return (values, next == 0 ? nil : next)
        }

        guard let first = readIFD(ifd0, wanted: [0x0112]) else {
            problem = "EXIF IFD0 lies outside the block"
            return
        }
        if let o = first.values[0x0112] {
            orientationValue = o.value
            orientationField = (o.offset, o.width)
        }
        guard let ifd1 = first.next, ifd1 != ifd0, let second = readIFD(ifd1, wanted: [0x0201, 0x0202]) else { return }
        if let start = second.values[0x0201]?.value, let length = second.values[0x0202]?.value,
            start > 0, length > 0, start <= tiff.count, length <= tiff.count - start
        {
            thumbnailRange = start..<start + length
        }
    }

    /// A copy of `tiff` whose orientation tag (if any) reads 1.
    package static func settingOrientationUp(_ tiff: [UInt8]) -> [UInt8] {
        let reader = tiff.withUnsafeBytes { ExifReader(tiff: $0) }
        guard let field = reader.orientationField, field.offset + field.width <= tiff.count else { return tiff }
        var out = tiff
        for i in 0..<field.width {
            let last = reader.isLittleEndian ? i == 0 : i == field.width - 1
            out[field.offset + i] = last ? 1 : 0
        }
        return out
    }
}
