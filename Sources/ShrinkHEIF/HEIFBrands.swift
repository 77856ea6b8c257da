/// The brands of a HEIF file's `ftyp` box, read for sniffing (no other box is walked).
enum HEIFBrands {
    /// The major brand of the `ftyp` box at the start of `bytes`, or nil when it does not start with one.
    static func major(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
        return String(decoding: bytes[8..<12], as: UTF8.self)
    }

    /// The compatible brands of the `ftyp` box at the start of `bytes` (as many as fit in both the box and
    /// `bytes`; none when it is not an `ftyp` box).
    static func compatible(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return [] }
        let size = min(bytes.count, (0..<4).reduce(0) { $0 << 8 | Int(bytes[$1]) })
        var brands: [String] = []
        var i = 16
        while i + 4 <= size && brands.count < 64 {
            brands.append(String(decoding: bytes[i..<(i + 4)], as: UTF8.self))
            i += 4
        }
        return brands
    }
}
