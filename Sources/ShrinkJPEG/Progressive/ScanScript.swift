#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore

/// A Huffman JPEG's structure read from the bytes by walking its markers: the frame, the quantisation
/// tables, and every scan with the Huffman tables and restart interval in force at its SOS and the range of
/// its entropy-coded data. Scan data is not decoded; finding where a scan ends is a scan for its next marker.
///
/// A progressive frame's walk reads every scan. A sequential frame's (baseline or extended, 8-bit) stops at
/// its first scan, whose data is taken to run to the end of the bytes: its decoder stops at the first marker
/// that is not a restart marker, so the data is read once, by the decoder.
///
/// Every length is checked against the bytes, so a corrupt file gives `.corruptData` or `.truncated`, never
/// an over-read. Cost: one pass over the file looking for 0xFF bytes (progressive), the headers alone
/// (sequential).
struct ScanScript {
    struct Component {
        let id: UInt8
        let h: Int, v: Int
        let quantTable: Int
        /// Blocks of this component in a non-interleaved scan (the component's own size, rounded up).
        var blocksWide = 0, blocksHigh = 0
    }

    struct Scan {
        /// Indices into ``ScanScript/components``.
        let components: [Int]
        let dcTables: [Int], acTables: [Int]
        let ss: Int, se: Int, ah: Int, al: Int
        let restartInterval: Int
        /// Entropy-coded data (restart markers included).
        let data: Range<Int>
        /// The Huffman tables in force for this scan (index 0–3 DC, 4–7 AC).
        let tables: [HuffmanTable?]
    }

    let width: Int, height: Int
    var components: [Component]
    let maxH: Int, maxV: Int
    let mcusWide: Int, mcusHigh: Int
    let quantTables: [[UInt16]?]
    let scans: [Scan]
    /// True when the walk reached an EOI marker; false when the data ran out first (a truncated file), and
    /// for a sequential frame, whose walk ends at its first scan.
    let endsWithEOI: Bool
    /// True for a progressive frame (SOF2), false for a sequential one (SOF0, SOF1).
    let progressive: Bool

    /// `release(offset)` is called every MiB of the walk so pages behind it can be dropped. More than
    /// `maxScans` scans is `.limitExceeded`.
    init(
        _ bytes: UnsafeRawBufferPointer, path: String, maxScans: Int = ImageLimits().maxScans,
        release: (Int) -> Void = { _ in }
    ) throws(ImageError) {
        let n = bytes.count
        guard n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw ImageError(.corruptData, "\(path): not a JPEG (no SOI)")
        }
        var pos = 2
        var quant = [[UInt16]?](repeating: nil, count: 4)
        var tables = [HuffmanTable?](repeating: nil, count: 8)
        var restart = 0
        var frame: (w: Int, h: Int, comps: [Component], progressive: Bool)?
        var scans: [Scan] = []
        var sawEOI = false
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        markers: while true {
            // Find the next marker (skipping fill bytes); anything else between segments is corrupt.
            guard pos + 1 < n else { break }
            guard bytes[pos] == 0xFF else {
                throw ImageError(.corruptData, "\(path): expected a marker at byte \(pos)")
            }
            var marker = bytes[pos + 1]
            pos += 2
            while marker == 0xFF {
                guard pos < n else { break markers }
                marker = bytes[pos]
                pos += 1
            }
            switch marker {
            case 0xD9: // EOI
                sawEOI = true
                break markers
            case 0xD0...0xD7, 0x01: continue // stray RST / TEM: no length
            default: break
            }
            guard pos + 2 <= n else { throw ImageError(.truncated, "\(path): data ends inside a marker") }
            let length = u16(pos)
            guard length >= 2, pos + length <= n else {
                throw ImageError(.truncated, "\(path): a marker segment runs past the end of the data")
            }
            let body = pos + 2, end = pos + length
            switch marker {
            case 0xDB: // DQT
                var p = body
                while p < end {
                    let pq = Int(bytes[p] >> 4), tq = Int(bytes[p] & 15)
                    guard tq < 4, pq <= 1, p + 1 + 64 * (pq + 1) <= end else {
                        throw ImageError(.corruptData, "\(path): bad quantisation table")
                    }
                    var table = [UInt16](repeating: 0, count: 64)
                    for k in 0..<64 {
                        let value = pq == 0 ? UInt16(bytes[p + 1 + k]) : UInt16(u16(p + 1 + 2 * k))
                        table[Int(HuffmanTable.zigzag[k])] = value
                    }
                    quant[tq] = table
                    p += 1 + 64 * (pq + 1)
                }
            case 0xC4: // DHT
                var p = body
                while p < end {
                    guard p + 17 <= end else { throw ImageError(.corruptData, "\(path): bad Huffman table") }
                    let tc = Int(bytes[p] >> 4), th = Int(bytes[p] & 15)
                    guard tc <= 1, th < 4 else {
                        throw ImageError(.corruptData, "\(path): bad Huffman table class or slot")
                    }
                    var counts = [Int](repeating: 0, count: 17)
                    var total = 0
                    for l in 1...16 { counts[l] = Int(bytes[p + l]); total += counts[l] }
                    guard total <= 256, p + 17 + total <= end else {
                        throw ImageError(.corruptData, "\(path): bad Huffman table")
                    }
                    let symbols = (0..<total).map { bytes[p + 17 + $0] }
                    tables[tc * 4 + th] = try HuffmanTable(counts: counts, symbols: symbols, path: path)
                    p += 17 + total
                }
            case 0xDD: // DRI
                guard length >= 4 else { throw ImageError(.corruptData, "\(path): bad restart interval") }
                restart = u16(body)
            case 0xC0, 0xC1, 0xC2: // SOF0/SOF1 sequential, SOF2 progressive Huffman
                guard frame == nil, length >= 8 else {
                    throw ImageError(.corruptData, "\(path): bad or repeated frame header")
                }
                guard bytes[body] == 8 else {
                    throw ImageError(.unsupportedFeature, "\(path): \(bytes[body])-bit JPEG")
                }
                let h = u16(body + 1), w = u16(body + 3), count = Int(bytes[body + 5])
                guard w > 0, h > 0, count >= 1, count <= 4, length == 8 + 3 * count else {
                    throw ImageError(.corruptData, "\(path): bad frame header")
                }
                var comps: [Component] = []
                for i in 0..<count {
                    let q = body + 6 + 3 * i
                    let hs = Int(bytes[q + 1] >> 4), vs = Int(bytes[q + 1] & 15), tq = Int(bytes[q + 2])
                    guard (1...4).contains(hs), (1...4).contains(vs), tq < 4 else {
                        throw ImageError(.corruptData, "\(path): bad component")
                    }
                    comps.append(Component(id: bytes[q], h: hs, v: vs, quantTable: tq))
                }
                frame = (w, h, comps, marker == 0xC2)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw ImageError(
                    .unsupportedFeature, "\(path): not a Huffman-coded DCT JPEG (lossless, hierarchical or arithmetic)")
            case 0xDA: // SOS
                guard let f = frame else { throw ImageError(.corruptData, "\(path): scan before the frame header") }
                guard scans.count < maxScans else {
                    throw ImageError.tooManyScans(path: path, limit: maxScans)
                }
                guard length >= 3 else { throw ImageError(.corruptData, "\(path): bad scan header") }
                let count = Int(bytes[body])
                guard count >= 1, count <= 4, length == 6 + 2 * count else {
                    throw ImageError(.corruptData, "\(path): bad scan header")
                }
                var indices: [Int] = [], dc: [Int] = [], ac: [Int] = []
                for i in 0..<count {
                    let id = bytes[body + 1 + 2 * i], sel = bytes[body + 2 + 2 * i]
                    guard let c = f.comps.firstIndex(where: { $0.id == id }), !indices.contains(c) else {
                        throw ImageError(.corruptData, "\(path): scan names an unknown component")
                    }
                    indices.append(c)
                    dc.append(Int(sel >> 4))
                    ac.append(Int(sel & 15))
                }
                let p = body + 1 + 2 * count
                let ss = Int(bytes[p]), se = Int(bytes[p + 1]), ah = Int(bytes[p + 2] >> 4), al = Int(bytes[p + 2] & 15)
                guard dc.allSatisfy({ $0 < 4 }), ac.allSatisfy({ $0 < 4 }) else {
                    throw ImageError(.corruptData, "\(path): bad table selector")
                }
                if !f.progressive {
                    // A sequential scan holds every coefficient (libjpeg warns about other values and ignores them;
                    // such a file is left to it). Its data runs to the end of the bytes, for the decoder to stop at.
                    guard ss == 0, se == 63, ah == 0, al == 0 else {
                        throw ImageError(
                            .unsupportedFeature, "\(path): a sequential scan with spectral selection \(ss)-\(se)")
                    }
                    scans.append(
                        Scan(
                            components: indices, dcTables: dc, acTables: ac, ss: 0, se: 63, ah: 0, al: 0,
                            restartInterval: restart, data: end..<n, tables: tables))
                    break markers
                }
                guard ss <= se, se <= 63, al <= 13, ah <= 13, (ss == 0) == (se == 0) else {
                    throw ImageError(.corruptData, "\(path): bad spectral selection \(ss)-\(se)")
                }
                guard ss == 0 || count == 1 else {
                    throw ImageError(.corruptData, "\(path): an AC scan must hold one component")
                }
                // The entropy-coded data runs to the next marker that is not a restart marker.
                var q = end
                var nextRelease = (q >> 20 + 1) << 20
                while q + 1 < n {
                    if q >= nextRelease {
                        release(q)
                        nextRelease += 1 << 20
                    }
                    // Jump to the next 0xFF (memchr is vectorised), at most to the next release point.
                    let limit = min(n - 1, nextRelease) - q
                    if let hit = memchr(bytes.baseAddress! + q, 0xFF, limit) {
                        q = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    } else {
                        q += limit
                        continue
                    }
                    if bytes[q] == 0xFF {
                        let m = bytes[q + 1]
                        if m == 0 || (0xD0...0xD7).contains(m) || m == 0xFF { q += m == 0xFF ? 1 : 2; continue }
                        break
                    }
                    q += 1
                }
                if q + 1 >= n { q = n }
                scans.append(
                    Scan(
                        components: indices, dcTables: dc, acTables: ac, ss: ss, se: se, ah: ah, al: al,
                        restartInterval: restart, data: end..<q, tables: tables))
                pos = q
                continue markers
            default:
                break
            }
            pos = end
        }
        guard let f = frame else { throw ImageError(.corruptData, "\(path): no frame header") }
        width = f.w
        height = f.h
        maxH = f.comps.map(\.h).max()!
        maxV = f.comps.map(\.v).max()!
        mcusWide = (f.w + 8 * maxH - 1) / (8 * maxH)
        mcusHigh = (f.h + 8 * maxV - 1) / (8 * maxV)
        components = f.comps
        for i in components.indices {
            let cw = (f.w * components[i].h + maxH - 1) / maxH, ch = (f.h * components[i].v + maxV - 1) / maxV
            components[i].blocksWide = (cw + 7) / 8
            components[i].blocksHigh = (ch + 7) / 8
        }
        quantTables = quant
        self.scans = scans
        endsWithEOI = sawEOI
        progressive = f.progressive
    }
}
