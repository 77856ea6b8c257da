import ShrinkCore

/// The inner loop of a DC scan (T.81 G.1.2.1 first scans, G.1.2.2 refinements) over a precomputed MCU layout:
/// per block one Huffman decode and one EXTEND (or one bit), no allocation, no division, no closure. A 24 MP
/// 4:2:0 photo has 576,000 blocks per DC scan.
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
    /// blocks) are decoded and dropped. A bad Huffman code is an error when `strict`, else noted and skipped.
    static func decode(_ reader: inout EntropyReader, units: UnsafeBufferPointer<Unit>, codes: UnsafeBufferPointer<HuffmanCode>,
                       mcusWide: Int, mcusHigh: Int, refine: Bool, al: Int, strict: Bool,
                       path: String) throws(ImageError) -> Outcome {
        var outcome = Outcome()
        var scratch: Int16 = 0
        var pred = (0, 0, 0, 0)
        let bit = Int16(truncatingIfNeeded: 1 << al)
        try withUnsafeMutablePointer(to: &scratch) { scratch throws(ImageError) in
            for my in 0..<mcusHigh {
                for mx in 0..<mcusWide {
                    if try reader.restartIfDue(strict: strict, path: path) { pred = (0, 0, 0, 0) }
                    for unit in units {
                        let bx = mx * unit.h + unit.dx, by = my * unit.v + unit.dy
                        let target = bx < unit.wide && by < unit.high ? unit.values + (by * unit.wide + bx) : scratch
                        if refine {
                            if reader.bits(1) != 0 { target.pointee |= bit }
                            continue
                        }
                        guard let s = reader.decode(codes[unit.slot]), s <= 15 else {
                            if strict { throw ImageError(.corruptData, "\(path): bad Huffman code in a DC scan") }
                            outcome.badCode = true
                            continue
                        }
                        let diff = reader.signed(s)
                        let value: Int
                        switch unit.slot {
                        case 0: pred.0 &+= diff; value = pred.0
                        case 1: pred.1 &+= diff; value = pred.1
                        case 2: pred.2 &+= diff; value = pred.2
                        default: pred.3 &+= diff; value = pred.3
                        }
                        target.pointee = Int16(truncatingIfNeeded: value << al)
                    }
                }
            }
        }
        return outcome
    }
}
