/// An AC Huffman table turned into few lookups per block for a decode that keeps no AC value: indexed by the
/// next ``bits`` bits of the data, an entry tells how many bits the codes in them *and* their values take (the
/// values are skipped unread), how far the coefficient index moves, and whether the block ends there. An entry
/// covers as many whole codes as fit in ``bits`` bits, up to an end of block and 16 index steps; it also
/// describes its first code alone, for the end of a block, where its last coefficient may be coded without an
/// end-of-block code (the bits after it then belong to the next block).
///
/// Entry layout: bits 0–4 all codes' bits, 5–11 their index step (run + 1 each, 16 for ZRL), bit 12 an end of
/// block among them; bits 13–17, 18–24 and 25 the same for the first code alone. 0 when not even the first code
/// fits (codes longer than ``bits``, rare: the caller decodes those with the ordinary table). A first code whose
/// value does not fit takes up to 27 bits, alone. Memory: 16 KiB.
final class ACSkipTable: @unchecked Sendable {
    static let bits = 12

    let entries: UnsafeMutablePointer<UInt32>

    /// Built from `table`'s code counts and symbols (validated when it was built).
    init(_ table: HuffmanTable) {
        let size = 1 << Self.bits
        entries = .allocate(capacity: size)
        // Canonical codes (T.81 C): the first code of each length, and where its symbols start.
        var first = [Int](repeating: 0, count: 17), start = [Int](repeating: 0, count: 17)
        var code = 0, k = 0
        for length in 1...16 {
            first[length] = code
            start[length] = k
            code = (code + table.counts[length]) << 1
            k += table.counts[length]
        }
        /// The code at bit `at` of `window` (its top bit first) and its value's size: (bits used, step, end of block).
        func item(_ window: Int, at: Int) -> (bits: Int, step: Int, end: Bool)? {
            for length in 1...16 where at + length <= Self.bits {
                let c = (window >> (Self.bits - at - length)) & ((1 << length) - 1)
                let n = table.counts[length]
                guard n > 0, c >= first[length], c < first[length] + n else { continue }
                let rs = Int(table.symbols[start[length] + c - first[length]]), run = rs >> 4, sz = rs & 15
                if sz == 0 { return run == 15 ? (length, 16, false) : (length, 0, true) }   // ZRL; any other: end of block
                // A first code whose value runs past the window is still one entry (the caller makes sure it has the
                // bits); later ones must fit.
                return at == 0 || at + length + sz <= Self.bits ? (length + sz, run + 1, false) : nil
            }
            return nil
        }
        for window in 0..<size {
            guard let one = item(window, at: 0) else {
                entries[window] = 0
                continue
            }
            var used = one.bits, step = one.step, end = one.end
            while !end, let next = item(window, at: used), step + next.step <= 16 {
                used += next.bits
                step += next.step
                end = next.end
            }
            entries[window] = UInt32(used) | UInt32(step) << 5 | (end ? 1 << 12 : 0)
                | UInt32(one.bits) << 13 | UInt32(one.step) << 18 | (one.end ? 1 << 25 : 0)
        }
    }

    deinit { entries.deallocate() }
}
