/// Integer reads from a TIFF structure (an EXIF block, a camera RAW file) in its byte order, each bounds-checked: nil
/// past the end.
package struct TIFFBytes {
    package let bytes: UnsafeRawBufferPointer
    /// True for little-endian ("II") data.
    package let isLittleEndian: Bool

    /// The reader of `bytes` in the byte order `littleEndian` names.
    package init(_ bytes: UnsafeRawBufferPointer, littleEndian: Bool) {
        self.bytes = bytes
        self.isLittleEndian = littleEndian
    }

    /// The byte order `bytes`' first two bytes name (`II` or `MM`); nil for neither.
    package static func byteOrder(of bytes: UnsafeRawBufferPointer) -> Bool? {
        guard bytes.count >= 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): return true
        case (0x4D, 0x4D): return false
        default: return nil
        }
    }

    /// The 16-bit unsigned integer at `at`.
    package func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = Int(bytes[at]), b = Int(bytes[at + 1])
        return isLittleEndian ? a | b << 8 : a << 8 | b
    }

    /// The 32-bit unsigned integer at `at`.
    package func u32(_ at: Int) -> Int? {
        guard let lo = u16(isLittleEndian ? at : at + 2), let hi = u16(isLittleEndian ? at + 2 : at) else { return nil }
        return hi << 16 | lo
    }
}
