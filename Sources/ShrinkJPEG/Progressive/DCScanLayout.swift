import ShrinkCore

/// The inner loops of a DC scan (T.81 G.1.2.1 first scans, G.1.2.2 refinements), one MCU row at a time: the
/// row's blocks are decoded in scan order into a small buffer (per block one Huffman decode and one EXTEND,
/// or one bit; the loop holds only the bit reader, the tables and four predictions), then scattered to
/// their components' DC values. No allocation per block, no division, no closure. A 24 MP 4:2:0 photo has
/// 576,000 blocks per DC scan.
///
/// Memory: one MCU row of Int16 values (`mcusWide × blocks per MCU`).
enum DCScanLayout {
    /// One block of the MCU: its component's slot in the scan (Huffman table and prediction), its offset in
    /// the MCU, the component's sampling in this scan (1×1 for one-component scans) and its DC values.
    struct Unit {
        let slot: Int
        let dx: Int, dy: Int
        let h: Int, v: Int
        let wide: Int, high: Int
        let values: UnsafeMutablePointer<Int16>
    }

    struct Outcome {
        var badCode = false
    }

    /// Decodes `mcusWide × mcusHigh` MCUs of `units`. Blocks in the MCU padding (past a component's
    /// blocks) are decoded and dropped. A bad Huffman code is an error when `strict`, else noted and read as 0.
    static func decode(
        _ entropy: inout EntropyReader, units: UnsafeBufferPointer<Unit>, codes: UnsafeBufferPointer<HuffmanCode>,
        mcusWide: Int, mcusHigh: Int, refine: Bool, al: Int, strict: Bool,
        path: String
    ) throws(ImageError) -> Outcome {
        var outcome = Outcome()
        let perMCU = units.count
        let row = UnsafeMutablePointer<Int16>.allocate(capacity: max(1, mcusWide * perMCU))
        defer { row.deallocate() }
        let slots = UnsafeMutablePointer<Int>.allocate(capacity: max(1, perMCU))
        defer { slots.deallocate() }
        for (u, unit) in units.enumerated() { slots[u] = unit.slot }
        var pred = (0, 0, 0, 0)
        for my in 0..<mcusHigh {
            if refine {
                try refineRow(&entropy, into: row, mcus: mcusWide, perMCU: perMCU, strict: strict, path: path)
            } else {
                outcome.badCode =
                    try firstRow(
                        &entropy, into: row, mcus: mcusWide, perMCU: perMCU, slots: slots, codes: codes,
                        al: al, pred: &pred, strict: strict, path: path) || outcome.badCode
            }
            // Scatter the row to the components (OR-ing refinement bits in); blocks past a component's width
            // (MCU padding) are dropped.
            let bit = Int16(truncatingIfNeeded: 1 << al)
            for (u, unit) in units.enumerated() {
                let by = my * unit.v + unit.dy
                guard by < unit.high, unit.dx < unit.wide else { continue }
                let columns = min(mcusWide, (unit.wide - unit.dx + unit.h - 1) / unit.h)
                var target = unit.values + (by * unit.wide + unit.dx), source = row + u
                let step = unit.h
                if refine {
                    for _ in 0..<columns {
                        if source.pointee != 0 { target.pointee |= bit }
                        target += step
                        source += perMCU
                    }
                } else {
                    for _ in 0..<columns {
                        target.pointee = source.pointee
                        target += step
                        source += perMCU
                    }
                }
            }
        }
        return outcome
    }

    /// One MCU row of a first DC scan into `row` (values already shifted by `al`); true when a bad code was
    /// stepped over.
    private static func firstRow(
        _ entropy: inout EntropyReader, into row: UnsafeMutablePointer<Int16>, mcus: Int, perMCU: Int,
        slots: UnsafeMutablePointer<Int>, codes: UnsafeBufferPointer<HuffmanCode>, al: Int,
        pred: inout (Int, Int, Int, Int), strict: Bool, path: String
    ) throws(ImageError) -> Bool {
        var reader = entropy
        defer { entropy = reader }
        var p = pred
        defer { pred = p }
        var bad = false
        var i = 0
        for _ in 0..<mcus {
            if try reader.restartIfDue(strict: strict, path: path) { p = (0, 0, 0, 0) }
            if reader.fakeBitsUsed {
                // The data ran out before a marker: as libjpeg (insufficient_data), the rest of the interval's
                // blocks are not decoded and keep a zero DC.
                for _ in 0..<perMCU {
                    row[i] = 0
                    i += 1
                }
                continue
            }
            for u in 0..<perMCU {
                let slot = slots[u]
                var diff = 0
                if let s = reader.decode(codes[slot]), s <= 15 {
                    diff = reader.signed(s)
                } else {
                    if strict { throw ImageError(.corruptData, "\(path): bad Huffman code in a DC scan") }
                    bad = true
                }
                let value: Int
                switch slot {
                case 0: p.0 &+= diff; value = p.0
                case 1: p.1 &+= diff; value = p.1
                case 2: p.2 &+= diff; value = p.2
                default: p.3 &+= diff; value = p.3
                }
                row[i] = Int16(truncatingIfNeeded: value << al)
                i += 1
            }
        }
        return bad
    }

    /// One MCU row of a DC refinement scan: one bit per block into `row`.
    private static func refineRow(
        _ entropy: inout EntropyReader, into row: UnsafeMutablePointer<Int16>, mcus: Int, perMCU: Int,
        strict: Bool, path: String
    ) throws(ImageError) {
        var reader = entropy
        defer { entropy = reader }
        var i = 0
        for _ in 0..<mcus {
            _ = try reader.restartIfDue(strict: strict, path: path)
            for _ in 0..<perMCU {
                row[i] = Int16(truncatingIfNeeded: reader.bits(1))
                i += 1
            }
        }
    }
}
