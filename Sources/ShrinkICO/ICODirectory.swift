import ShrinkCore

/// An ICO or CUR file's directory: its kind and its entries, each checked to lie inside the file.
struct ICODirectory {
    /// True for a cursor (CUR), false for an icon.
    let isCursor: Bool
    /// The entries listed, in the file's order (at most ``maxEntries``).
    let entries: [ICOEntry]
    /// Entries the directory lists beyond ``maxEntries``, or beyond its end.
    let skipped: Int

    /// Entries read at most; an icon has a handful (one per size and depth).
    static let maxEntries = 256

    /// Reads the directory of `bytes`. Fails with `.corruptData` or `.truncated` when it lists no usable entry.
    init(_ bytes: UnsafeRawBufferPointer, path: String) throws(ImageError) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 6 else { throw ImageError(.truncated, "\(path): the icon's directory is cut short") }
        isCursor = u16(2) == 2
        let count = u16(4)
        guard count > 0 else {
            throw ImageError(.corruptData, "\(path): the \(isCursor ? "cursor" : "icon") holds no image")
        }
        var entries: [ICOEntry] = []
        var skipped = max(0, count - Self.maxEntries)
        for i in 0..<min(count, Self.maxEntries) {
            let at = 6 + 16 * i
            guard at + 16 <= bytes.count else {
                skipped += min(count, Self.maxEntries) - i
                break
            }
            let length = u32(at + 8), offset = u32(at + 12)
            let inside = offset >= 6 && length >= 8 && offset <= bytes.count && length <= bytes.count - offset
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
            entries.append(
                ICOEntry(
                    listedWidth: bytes[at] == 0 ? 256 : Int(bytes[at]),
                    listedHeight: bytes[at + 1] == 0 ? 256 : Int(bytes[at + 1]),
                    listedBitCount: isCursor ? 0 : u16(at + 6), range: inside ? offset..<(offset + length) : 0..<0,
                    isPNG: inside && (0..<4).allSatisfy { bytes[offset + $0] == png[$0] }, isInside: inside))
        }
        guard !entries.isEmpty else { throw ImageError(.truncated, "\(path): the icon's directory is cut short") }
        self.entries = entries
        self.skipped = skipped
    }
}
