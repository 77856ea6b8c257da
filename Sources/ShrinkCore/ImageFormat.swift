/// A container format, recognised from its first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heif, avif, gif, tiff, bmp

    /// Recognises the format from the magic bytes at the start of a file; nil when unknown.
    public init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + magic.count else { return false }
            for (i, b) in magic.enumerated() where bytes[offset + i] != b { return false }
            return true
        }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if starts(Array("GIF8".utf8)) { self = .gif }
        else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else if starts(Array("BM".utf8)) { self = .bmp }
        else if starts(Array("ftyp".utf8), at: 4) {
            if starts(Array("avif".utf8), at: 8) || starts(Array("avis".utf8), at: 8) { self = .avif } else { self = .heif }
        } else { return nil }
    }
}
