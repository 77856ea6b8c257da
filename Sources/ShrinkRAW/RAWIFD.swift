import ShrinkCore

/// One image file directory of a RAW file's TIFF structure, read in place: its entries by tag, their values read on
/// demand with offsets taken from `base` (0 for the file's own directories; a maker note's start or its own TIFF
/// header for the directories inside it). Every read is bounds-checked: a value outside the file reads as absent.
struct RAWIFD {
    /// One entry: its type, count, and where its value sits in the file.
    struct Entry {
        let type: Int
        let count: Int
        /// The value's position: in the entry when it fits in four bytes, else at the offset it holds.
        let at: Int
    }

    /// Entries a directory holds at most before it is read as garbage.
    static let maxEntries = 1000

    let reader: TIFFBytes
    let base: Int
    private(set) var entries: [Int: Entry] = [:]
    /// The next directory's offset (from `base`), when the link is not 0.
    private(set) var next: Int?

    /// The directory at `offset` from `base`; nil when it lies outside the file or claims more than
    /// ``maxEntries`` entries. A directory cut by the end of the file keeps the entries before the cut.
    init?(_ reader: TIFFBytes, at offset: Int, base: Int) {
        self.reader = reader
        self.base = base
        let start = base + offset
        guard offset >= 0, let count = reader.u16(start), count > 0, count <= Self.maxEntries else { return nil }
        for i in 0..<count {
            let entry = start + 2 + i * 12
            guard let tag = reader.u16(entry), let type = reader.u16(entry + 2), let n = reader.u32(entry + 4),
                let width = Self.width(type)
            else { continue }
            let inline = n * width <= 4
            guard let at = inline ? entry + 8 : reader.u32(entry + 8).map({ $0 + base }) else { continue }
            entries[tag] = Entry(type: type, count: n, at: at)
        }
        let link = reader.u32(start + 2 + count * 12) ?? 0
        next = link == 0 ? nil : link
    }

    /// Bytes per value of TIFF type `type`; nil for an unknown type.
    private static func width(_ type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// The integer values of `tag` (BYTE, SHORT, LONG or IFD; at most `limit`), or empty when absent or of another
    /// type.
    func integers(_ tag: Int, limit: Int = 64) -> [Int] {
        guard let e = entries[tag] else { return [] }
        return (0..<min(e.count, limit)).compactMap { i in
            switch e.type {
            case 1, 7: e.at + i < reader.bytes.count ? Int(reader.bytes[e.at + i]) : nil
            case 3: reader.u16(e.at + i * 2)
            case 4, 13: reader.u32(e.at + i * 4)
            default: nil
            }
        }
    }

    /// The first integer value of `tag`.
    func integer(_ tag: Int) -> Int? { integers(tag, limit: 1).first }

    /// The first value of `tag` as a number: an integer, or a RATIONAL's quotient rounded.
    func number(_ tag: Int) -> [Int] {
        guard let e = entries[tag], e.type == 5 else { return integers(tag) }
        return (0..<min(e.count, 8)).compactMap { i in
            guard let n = reader.u32(e.at + i * 8), let d = reader.u32(e.at + i * 8 + 4), d > 0 else { return nil }
            return (n + d / 2) / d
        }
    }

    /// The text of an ASCII `tag`, up to its first NUL, with spaces trimmed.
    func text(_ tag: Int) -> String? {
        guard let e = entries[tag], e.type == 2, e.count < 4096, e.at >= 0, e.at + e.count <= reader.bytes.count
        else { return nil }
        return String(cBytes: UnsafeRawBufferPointer(rebasing: reader.bytes[e.at..<e.at + e.count])).cameraText
    }

    /// The bytes of `tag`'s value (an UNDEFINED blob such as an embedded JPEG), when inside the file.
    func blob(_ tag: Int) -> Range<Int>? {
        guard let e = entries[tag], e.type == 7 || e.type == 1, e.at >= 0, e.count <= reader.bytes.count - e.at
        else { return nil }
        return e.at..<e.at + e.count
    }
}
