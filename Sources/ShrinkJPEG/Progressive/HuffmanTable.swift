import ShrinkCore

/// A JPEG Huffman table ready for decoding: a 9-bit lookahead table for short codes and the canonical
/// per-length limits (T.81 F.2.2.3) for the rest. A class over fixed-size buffers, so decoding loops pass it
/// without copying or reference-counting arrays.
final class HuffmanTable: @unchecked Sendable {
    /// Natural (row-major) position of the k-th coefficient in zigzag order (with 16 entries of 63 after
    /// the end, so a corrupt run past position 63 lands on a harmless slot instead of out of bounds).
    static let zigzag: [UInt8] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14,
        21,
        28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
        54, 47, 55, 62, 63,
    ]
    static let lookaheadBits = 9

    /// For each 9-bit prefix: code length (0 = longer than 9 bits) << 8 | symbol.
    let lookahead: UnsafeMutablePointer<UInt16>
    /// The largest code of each length 0…17 (-1 when none), and the offset from a code to its symbol index.
    let maxCode: UnsafeMutablePointer<Int>
    let offset: UnsafeMutablePointer<Int>
    /// The symbols, 256 slots (unused ones 0).
    let symbols: UnsafeMutablePointer<UInt8>
    let symbolCount: Int
    /// Codes of each length 1…16 (index 0 unused), as the DHT gave them.
    let counts: [Int]

    /// Builds the table for `counts[1...16]` codes of each length and their `list` of symbols. The counts
    /// are validated before anything is written: lengths 1–16 only, at most 256 symbols, exactly as many
    /// symbols as codes, and no length with more codes than the canonical code space has left (T.81 C). An
    /// invalid table is `.corruptData`, thrown before anything is allocated.
    init(counts: [Int], symbols list: [UInt8], path: String) throws(ImageError) {
        try Self.validate(counts: counts, symbolCount: list.count, path: path)
        lookahead = .allocate(capacity: 1 << 9)
        maxCode = .allocate(capacity: 18)
        offset = .allocate(capacity: 18)
        symbols = .allocate(capacity: 256)
        lookahead.initialize(repeating: 0, count: 1 << 9)
        maxCode.initialize(repeating: -1, count: 18)
        offset.initialize(repeating: 0, count: 18)
        symbols.initialize(repeating: 0, count: 256)
        symbolCount = list.count
        self.counts = counts
        for (i, s) in list.enumerated() { symbols[i] = s }
        var code = 0, k = 0
        for length in 1...16 {
            let count = counts[length]
            if count > 0 {
                offset[length] = k - code
                for _ in 0..<count {
                    if length <= Self.lookaheadBits {
                        let shift = Self.lookaheadBits - length
                        for fill in (code << shift)..<((code + 1) << shift) {
                            lookahead[fill] = UInt16(length) << 8 | UInt16(list[k])
                        }
                    }
                    code += 1
                    k += 1
                }
                maxCode[length] = code - 1
            }
            code <<= 1
        }
    }

    /// Checks a DHT's code counts without touching any table: `counts` has an entry for every length 1–16
    /// (index 0 unused), the counts add up to `symbolCount` ≤ 256, and the canonical codes fit their lengths.
    static func validate(counts: [Int], symbolCount: Int, path: String) throws(ImageError) {
        guard counts.count == 17, counts.allSatisfy({ $0 >= 0 }) else {
            throw ImageError(.corruptData, "\(path): a Huffman table has a bad length count")
        }
        var code = 0, total = 0
        for length in 1...16 {
            code += counts[length]
            total += counts[length]
            // All-ones codes of a length are reserved by T.81 for prefixes of longer codes, but libjpeg
            // accepts a full code space; only a code that does not fit its length is fatal.
            guard code <= 1 << length else {
                throw ImageError(.corruptData, "\(path): a Huffman table has too many codes")
            }
            code <<= 1
        }
        guard total <= 256, total == symbolCount else {
            throw ImageError(
                .corruptData, "\(path): a Huffman table declares \(total) codes for \(symbolCount) symbols")
        }
    }

    /// The table's buffers as plain pointers, for decoding loops (valid while this table lives).
    var code: HuffmanCode {
        HuffmanCode(lookahead: lookahead, maxCode: maxCode, offset: offset, symbols: symbols, symbolCount: symbolCount)
    }

    deinit {
        lookahead.deallocate()
        maxCode.deallocate()
        offset.deallocate()
        symbols.deallocate()
    }
}

/// A ``HuffmanTable``'s buffers without ownership: copying it costs nothing, so hot loops hold it in
/// registers. Valid only while its table is alive.
struct HuffmanCode {
    let lookahead: UnsafeMutablePointer<UInt16>
    let maxCode: UnsafeMutablePointer<Int>
    let offset: UnsafeMutablePointer<Int>
    let symbols: UnsafeMutablePointer<UInt8>
    let symbolCount: Int
}
