import ShrinkCore

/// The inner loop of ``BaselineDCDecoder``: one MCU row of a sequential scan, each block's DC difference decoded
/// and added to its component's prediction, the sample written, the AC coefficients skipped. Plain pointers
/// and values only: no allocation, no closure, no bounds check per block.
enum DCOnlyRow {
    /// One block of the MCU, ready for the loop: its tables' buffers, where its sample of MCU 0 goes (MCU `m`'s at
    /// `out + m × step`), its prediction slot and its DC quantiser.
    struct Block {
        let dc: HuffmanCode
        let ac: HuffmanCode
        let skip: UnsafePointer<UInt32>
        let out: UnsafeMutablePointer<UInt8>
        let step: Int
        let slot: Int
        let quant: Int
    }

    /// Decodes `mcus` MCUs of `blocks`; restart markers reset `pred` (one Int per scan slot). Returns true when a
    /// bad Huffman code was stepped over (read as a zero difference, or as the end of the block); with `strict`
    /// it is an error instead.
    static func decode(_ entropy: inout EntropyReader, blocks: UnsafeBufferPointer<Block>, mcus: Int,
                       pred: UnsafeMutablePointer<Int>, strict: Bool, path: String) throws(ImageError) -> Bool {
        var reader = entropy
        defer { entropy = reader }
        var bad = false
        for m in 0..<mcus {
            if try reader.restartIfDue(strict: strict, path: path) { pred.update(repeating: 0, count: 4) }
            for block in blocks {
                let (diff, ok) = reader.dcOnlyBlock(block.dc, block.skip, block.ac)
                if !ok { bad = true }
                let value = pred[block.slot] &+ diff
                pred[block.slot] = value
                // libjpeg keeps the coefficient as a 16-bit JCOEF, then its 1×1 IDCT: (DC × Q0 + 4) >> 3, level-shifted.
                let dc = Int(Int16(truncatingIfNeeded: value))
                block.out[m &* block.step] = UInt8(clamping: ((dc &* block.quant &+ 4) >> 3) &+ 128)
            }
            if bad && strict { throw ImageError(.corruptData, "\(path): bad Huffman code") }
        }
        return bad
    }
}
