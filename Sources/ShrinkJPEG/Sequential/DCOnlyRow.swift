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

    /// Decodes MCUs `mcus` of a row of `blocks`; restart markers reset `pred` (one Int per scan slot). Returns true when a
    /// bad Huffman code was stepped over (read as a zero difference, or as the end of the block); with `strict`
    /// it is an error instead.
    static func decode(
        _ entropy: inout EntropyReader, blocks: UnsafeBufferPointer<Block>, mcus: Range<Int>,
        pred: UnsafeMutablePointer<Int>, strict: Bool, path: String
    ) throws(ImageError) -> Bool {
        // Data runs out only in damaged files, and only after the reader stopped at a marker or the end: the MCUs are
        // decoded without looking for it, and again, looking before each MCU, only when it happened (a per-MCU check
        // slows every clean file; BENCHMARKS.md, "Figures behind the code"). Once it has, every pass looks.
        guard !entropy.fakeBitsUsed else {
            return try decodeChecked(&entropy, blocks: blocks, mcus: mcus, pred: pred, strict: strict, path: path)
        }
        let start = entropy, saved = (pred[0], pred[1], pred[2], pred[3])
        let bad = try decodeUnchecked(&entropy, blocks: blocks, mcus: mcus, pred: pred, strict: strict, path: path)
        guard entropy.fakeBitsUsed || entropy.ranShortAnywhere != start.ranShortAnywhere else { return bad }
        entropy = start
        (pred[0], pred[1], pred[2], pred[3]) = saved
        return try decodeChecked(&entropy, blocks: blocks, mcus: mcus, pred: pred, strict: strict, path: path)
    }

    /// ``decode(_:blocks:mcus:pred:strict:path:)`` without looking for data that ran out (the MCU loop specialised).
    @inline(never)
    private static func decodeUnchecked(
        _ entropy: inout EntropyReader, blocks: UnsafeBufferPointer<Block>, mcus: Range<Int>,
        pred: UnsafeMutablePointer<Int>, strict: Bool, path: String
    ) throws(ImageError) -> Bool {
        try decodeMCUs(&entropy, blocks: blocks, mcus: mcus, pred: pred, strict: strict, path: path, looking: false)
    }

    /// ``decode(_:blocks:mcus:pred:strict:path:)`` looking before each MCU for data that ran out.
    @inline(never)
    private static func decodeChecked(
        _ entropy: inout EntropyReader, blocks: UnsafeBufferPointer<Block>, mcus: Range<Int>,
        pred: UnsafeMutablePointer<Int>, strict: Bool, path: String
    ) throws(ImageError) -> Bool {
        try decodeMCUs(&entropy, blocks: blocks, mcus: mcus, pred: pred, strict: strict, path: path, looking: true)
    }

    /// The MCU loop of both passes; `looking` (a constant at each call, so each pass is compiled without the other's
    /// test) looks before each MCU for data that ran out.
    @inline(__always)
    private static func decodeMCUs(
        _ entropy: inout EntropyReader, blocks: UnsafeBufferPointer<Block>, mcus: Range<Int>,
        pred: UnsafeMutablePointer<Int>, strict: Bool, path: String, looking: Bool
    ) throws(ImageError) -> Bool {
        var reader = entropy
        defer { entropy = reader }
        var bad = false
        for m in mcus {
            if try reader.restartIfDue(strict: strict, path: path) { pred.update(repeating: 0, count: 4) }
            if looking && reader.fakeBitsUsed {
                // The data ran out before a marker: as libjpeg (insufficient_data), the rest of the interval's
                // blocks are not decoded: zero coefficients, grey, and the predictions left as they are.
                for block in blocks { block.out[m &* block.step] = 128 }
                continue
            }
            for block in blocks {
                let (diff, ok) = reader.dcOnlyBlock(block.dc, block.skip, block.ac)
                if !ok { bad = true }
                let value = pred[block.slot] &+ diff
                pred[block.slot] = value
                // libjpeg keeps the coefficient as a 16-bit JCOEF, then its 1×1 IDCT.
                block.out[m &* block.step] = DCFirstDecoder.sample(Int16(truncatingIfNeeded: value), quant: block.quant)
            }
            if bad && strict { throw ImageError(.corruptData, "\(path): bad Huffman code") }
        }
        return bad
    }
}
