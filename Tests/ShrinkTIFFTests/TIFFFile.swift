import ShrinkTestSupport

/// Little-endian TIFFs written tag by tag for the tests: uncompressed or LZW strips, any number of pages.
enum TIFFFile {
    /// How strips are stored.
    enum Coding {
        case none
        /// LZW as TIFF 6.0 writes it (most significant bit first, early change), `predictor` 1 or 2.
        case lzw(predictor: Int)
        /// The pre-6.0 "old-style" LZW (least significant bit first, no early change), which libtiff still reads.
        case oldStyleLZW
    }

    /// One image: its size, samples (`samplesPerPixel` values of `bits` bits a pixel, rows top first) and tags.
    struct Page {
        var width: Int, height: Int
        var samplesPerPixel = 3
        var bits = 8
        var photometric = 2
        var sampleFormat = 1
        var reduced = false
        var orientation = 1
        var rowsPerStrip = 2
        var coding = Coding.none
        /// ExtraSamples (2: unassociated alpha), written when not empty.
        var extraSamples: [Int] = []
        /// The pixel data as stored (bits / 8 bytes a sample, host order).
        var data: [UInt8]
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    static func file(_ pages: [Page]) -> [UInt8] {
        var out = Array("II".utf8) + le16(42) + le32(0)
        var nextPointer = 4
        for page in pages {
            // The strips, then the values too long for their entries, then the IFD.
            let rowBytes = page.width * page.samplesPerPixel * page.bits / 8
            var offsets: [Int] = [], counts: [Int] = []
            for start in stride(from: 0, to: page.height, by: page.rowsPerStrip) {
                let rows = min(page.rowsPerStrip, page.height - start)
                offsets.append(out.count)
                let strip = Self.code(Array(page.data[(start * rowBytes)..<((start + rows) * rowBytes)]), page)
                counts.append(strip.count)
                out += strip
            }
            if out.count % 2 == 1 { out.append(0) }
            var entries: [(tag: Int, type: Int, values: [Int])] = [
                (254, 4, [page.reduced ? 1 : 0]), (256, 4, [page.width]), (257, 4, [page.height]),
                (258, 3, Array(repeating: page.bits, count: page.samplesPerPixel)),
                (259, 3, [{ if case .none = page.coding { 1 } else { 5 } }()]),
                (262, 3, [page.photometric]), (273, 4, offsets), (274, 3, [page.orientation]),
                (277, 3, [page.samplesPerPixel]), (278, 4, [page.rowsPerStrip]), (279, 4, counts), (284, 3, [1]),
                (339, 3, Array(repeating: page.sampleFormat, count: page.samplesPerPixel)),
            ]
            if case .lzw(let predictor) = page.coding { entries.append((317, 3, [predictor])) }
            if !page.extraSamples.isEmpty { entries.append((338, 3, page.extraSamples)) }
            entries.sort { $0.tag < $1.tag }
            var payloads: [Int: Int] = [:]
            for (i, entry) in entries.enumerated() where entry.values.count * (entry.type == 3 ? 2 : 4) > 4 {
                payloads[i] = out.count
                for v in entry.values { out += entry.type == 3 ? le16(v) : le32(v) }
            }
            let ifd = out.count
            out.replaceSubrange(nextPointer..<(nextPointer + 4), with: le32(ifd))
            out += le16(entries.count)
            for (i, entry) in entries.enumerated() {
                out += le16(entry.tag) + le16(entry.type) + le32(entry.values.count)
                if let at = payloads[i] {
                    out += le32(at)
                } else {
                    var inline = entry.values.flatMap { entry.type == 3 ? le16($0) : le32($0) }
                    inline += [UInt8](repeating: 0, count: 4 - inline.count)
                    out += inline
                }
            }
            nextPointer = out.count
            out += le32(0)
        }
        return out
    }

    /// A strip's rows as the page stores them: as they are, or differenced (predictor 2) and LZW-coded.
    static func code(_ rows: [UInt8], _ page: Page) -> [UInt8] {
        switch page.coding {
        case .none: return rows
        case .oldStyleLZW: return TestLZW.encode(rows, literalBits: 8, msbFirst: false, earlyChange: false)
        case .lzw(let predictor):
            var data = rows
            if predictor == 2 {
                let rowBytes = page.width * page.samplesPerPixel, spp = page.samplesPerPixel
                for start in stride(from: 0, to: data.count, by: rowBytes) {
                    for i in stride(from: start + rowBytes - 1, through: start + spp, by: -1) {
                        data[i] = rows[i] &- rows[i - spp]
                    }
                }
            }
            return TestLZW.encode(data, literalBits: 8, msbFirst: true, earlyChange: true, clearAt: 4094)
        }
    }
}
