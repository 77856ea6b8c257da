import ShrinkCore

/// A cursor over part of an ISOBMFF file: big-endian integers, four-character codes and C strings, each read
/// only after checking it lies inside the range (`.corruptData` naming what was being read otherwise).
/// Reading costs nothing beyond the cursor; the bytes are the file's own.
struct BoxReader {
    let bytes: UnsafeRawBufferPointer
    /// The next byte to read (absolute offset in the file).
    private(set) var offset: Int
    /// One past the last byte this reader may read (absolute).
    let end: Int
    let path: String

    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, path: String) {
        self.bytes = bytes
        offset = range.lowerBound
        end = min(range.upperBound, bytes.count)
        self.path = path
    }

    /// Bytes left.
    var remaining: Int { max(0, end - offset) }

    private mutating func take(_ n: Int, _ what: String) throws(ImageError) -> Int {
        guard n >= 0, n <= remaining else {
            throw ImageError(
                .corruptData, "\(path): HEIF \(what) runs past its box (\(n) bytes wanted, \(remaining) left)")
        }
        defer { offset += n }
        return offset
    }

    mutating func u8(_ what: String) throws(ImageError) -> Int { Int(bytes[try take(1, what)]) }

    mutating func u16(_ what: String) throws(ImageError) -> Int {
        let at = try take(2, what)
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    mutating func u32(_ what: String) throws(ImageError) -> Int {
        let at = try take(4, what)
        return (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }

    /// An unsigned integer of `size` bytes (0, 4 or 8, as `iloc` sizes them; 1 and 2 too). Values above
    /// `Int.max` are `.corruptData`.
    mutating func uint(size: Int, _ what: String) throws(ImageError) -> Int {
        guard [0, 1, 2, 4, 8].contains(size) else {
            throw ImageError(.corruptData, "\(path): HEIF \(what) has a field size of \(size) bytes")
        }
        let at = try take(size, what)
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
        guard value <= UInt64(Int.max) else { throw ImageError(.corruptData, "\(path): HEIF \(what) is too large") }
        return Int(value)
    }

    mutating func fourCC(_ what: String) throws(ImageError) -> String {
        let at = try take(4, what)
        return String(decoding: (0..<4).map { bytes[at + $0] }, as: UTF8.self)
    }

    /// A NUL-terminated string (at most `maxLength` bytes are kept; a missing NUL ends it at the box's end).
    mutating func cString(_ what: String, maxLength: Int = 256) -> String {
        var chars: [UInt8] = []
        while offset < end {
            let c = bytes[offset]
            offset += 1
            if c == 0 { break }
            if chars.count < maxLength { chars.append(c) }
        }
        return String(decoding: chars, as: UTF8.self)
    }

    /// Skips `n` bytes.
    mutating func skip(_ n: Int, _ what: String) throws(ImageError) { _ = try take(n, what) }

    /// The range of the next `n` bytes, skipped.
    mutating func range(_ n: Int, _ what: String) throws(ImageError) -> Range<Int> {
        let at = try take(n, what)
        return at..<(at + n)
    }

    /// A full box's version and flags.
    mutating func versionAndFlags(_ what: String) throws(ImageError) -> (version: Int, flags: Int) {
        let word = try u32("\(what) version")
        return (word >> 24, word & 0xFF_FFFF)
    }
}
