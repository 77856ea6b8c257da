/// Progressive AC scans for one block (T.81 G.1.2.2 and G.1.2.3): first passes and refinements, with
/// end-of-band runs carried across blocks. Each returns false on a Huffman code no table entry matches.
/// `nonzero` has bit k set when the coefficient at zigzag index k is nonzero, so the correction bits of a
/// refinement's end-of-band stretch visit only those coefficients instead of every position.
enum ACDecoding {
    /// The spectral band of a scan and its successive-approximation bit.
    struct Band {
        let ss: Int, se: Int, al: Int
    }

    /// Zigzag index → natural position, padded to 80 entries (a corrupt run cannot index past the table).
    nonisolated(unsafe) static let zigzag: UnsafeMutablePointer<Int> = { // written once, then only read
        let p = UnsafeMutablePointer<Int>.allocate(capacity: 80)
        for k in 0..<80 { p[k] = Int(HuffmanTable.zigzag[min(k, 63)]) }
        return p
    }()

    @inline(__always)
    static func first(
        _ r: inout EntropyReader, _ table: HuffmanCode, _ band: Band, _ eobRun: inout Int,
        _ coef: UnsafeMutablePointer<Int32>, _ nonzero: inout UInt64, _ zz: UnsafeMutablePointer<Int>
    ) -> Bool {
        if eobRun > 0 {
            eobRun -= 1
            return true
        }
        var k = band.ss
        while k <= band.se {
            guard let rs = r.decode(table) else { return false }
            let run = rs >> 4, size = rs & 15
            if size != 0 {
                k += run
                guard k <= band.se else { return false }
                let value = Int32(truncatingIfNeeded: r.signed(size) << band.al)
                coef[zz[k]] = value
                if value != 0 { nonzero |= 1 << UInt64(k) }
                k += 1
            } else if run == 15 {
                k += 16
            } else {
                eobRun = (1 << run) - 1 + r.bits(run)
                break
            }
        }
        return true
    }

    @inline(__always)
    static func refine(
        _ r: inout EntropyReader, _ table: HuffmanCode, _ band: Band, _ eobRun: inout Int,
        _ coef: UnsafeMutablePointer<Int32>, _ nonzero: inout UInt64, _ zz: UnsafeMutablePointer<Int>
    ) -> Bool {
        let p1 = Int32(1) << Int32(band.al), m1 = Int32(-1) << Int32(band.al)
        var k = band.ss
        if eobRun == 0 {
            while k <= band.se {
                guard let rs = r.decode(table) else { return false }
                var run = rs >> 4
                let size = rs & 15
                var value: Int32 = 0
                if size != 0 {
                    guard size == 1 else { return false }
                    value = r.bit() != 0 ? p1 : m1
                } else if run != 15 {
                    eobRun = (1 << run) + r.bits(run)
                    break
                }
                // Skip `run` zero-history coefficients, correcting nonzero ones on the way; then place `value`.
                while k <= band.se {
                    let pos = zz[k]
                    if coef[pos] != 0 {
                        if r.bit() != 0, coef[pos] & p1 == 0 { coef[pos] += coef[pos] >= 0 ? p1 : m1 }
                    } else {
                        if run == 0 {
                            if value != 0 {
                                coef[pos] = value
                                nonzero |= 1 << UInt64(k)
                            }
                            k += 1
                            break
                        }
                        run -= 1
                    }
                    k += 1
                }
            }
        }
        if eobRun > 0 {
            // The rest of the band: only corrections to coefficients already nonzero, in zigzag order.
            if k <= band.se {
                let upTo: UInt64 = band.se >= 63 ? ~0 : (1 << UInt64(band.se + 1)) - 1
                var pending = nonzero & upTo & ~((1 << UInt64(k)) - 1)
                while pending != 0 {
                    let pos = zz[pending.trailingZeroBitCount]
                    if r.bit() != 0, coef[pos] & p1 == 0 { coef[pos] += coef[pos] >= 0 ? p1 : m1 }
                    pending &= pending - 1
                }
            }
            eobRun -= 1
        }
        return true
    }
}
