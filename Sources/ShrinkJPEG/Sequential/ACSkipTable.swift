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

    /// Built from `table`'s code counts and symbols (validated when it was built): first each window's first code
    /// alone, filled code by code (T.81 C's canonical order), then each entry extended by looking its remaining bits up
    /// in that first table: a code found there fits when it and its value end inside the window, whatever bits follow.
    /// Two passes over the table's entries, once per table a decode uses (build time: BENCHMARKS.md, "Figures behind
    /// the code").
    init(_ table: HuffmanTable) {
        let size = 1 << Self.bits
        entries = .allocate(capacity: size)
        entries.initialize(repeating: 0, count: size)
        // The first code of each window: the bits it and its value take, its index step, whether it ends the block.
        var used = [UInt8](repeating: 0, count: size), step = used, ends = [Bool](repeating: false, count: size)
        var code = 0, k = 0
        for length in 1...16 {
            for _ in 0..<table.counts[length] {
                defer { code += 1; k += 1 }
                guard length <= Self.bits else { continue }
                let rs = Int(table.symbols[k]), run = rs >> 4, sz = rs & 15
                let first = (code << (Self.bits - length))..<((code + 1) << (Self.bits - length))
                for w in first {
                    // ZRL skips 16 zeros; any other run without a value ends the block (as libjpeg reads it).
                    used[w] = UInt8(length + sz)
                    step[w] = UInt8(sz != 0 ? run + 1 : run == 15 ? 16 : 0)
                    ends[w] = sz == 0 && run != 15
                }
            }
            code <<= 1
        }
        for w in 0..<size where used[w] != 0 {
            let one = (bits: Int(used[w]), step: Int(step[w]), end: ends[w])
            var all = one
            // A first code whose value runs past the window is an entry alone (the caller makes sure it has the bits).
            while all.bits <= Self.bits && !all.end {
                let rest = (w << all.bits) & (size - 1)
                let bits = Int(used[rest]), next = Int(step[rest])
                guard bits != 0, all.bits + bits <= Self.bits, all.step + next <= 16 else { break }
                all = (all.bits + bits, all.step + next, ends[rest])
            }
            entries[w] =
                UInt32(all.bits) | UInt32(all.step) << 5 | (all.end ? 1 << 12 : 0)
                | UInt32(one.bits) << 13 | UInt32(one.step) << 18 | (one.end ? 1 << 25 : 0)
        }
    }

    deinit { entries.deallocate() }
}
