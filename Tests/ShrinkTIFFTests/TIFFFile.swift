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
        /// Tiles of this size (multiples of 16) instead of strips; edge tiles padded with zeros.
        var tile: (width: Int, height: Int)? = nil
        /// The pixel data as stored (bits / 8 bytes a sample, host order).
        var data: [UInt8]
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    static func file(_ pages: [Page]) -> [UInt8] {
        var out = Array("II".utf8) + le16(42) + le32(0)
        var nextPointer = 4
        for page in pages {
            // The strips or tiles, then the values too long for their entries, then the IFD.
            var offsets: [Int] = [], counts: [Int] = []
            for block in Self.blocks(page) {
                offsets.append(out.count)
                let coded = Self.code(block, page)
                counts.append(coded.count)
                out += coded
            }
            if out.count % 2 == 1 { out.append(0) }
            var entries: [(tag: Int, type: Int, values: [Int])] = [
                (254, 4, [page.reduced ? 1 : 0]), (256, 4, [page.width]), (257, 4, [page.height]),
                (258, 3, Array(repeating: page.bits, count: page.samplesPerPixel)),
                (259, 3, [{ if case .none = page.coding { 1 } else { 5 } }()]),
                (262, 3, [page.photometric]), (274, 3, [page.orientation]), (277, 3, [page.samplesPerPixel]),
                (284, 3, [1]), (339, 3, Array(repeating: page.sampleFormat, count: page.samplesPerPixel)),
            ]
            if let tile = page.tile {
                entries += [(322, 4, [tile.width]), (323, 4, [tile.height]), (324, 4, offsets), (325, 4, counts)]
            } else {
                entries += [(273, 4, offsets), (278, 4, [page.rowsPerStrip]), (279, 4, counts)]
            }
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

    /// The page's strips (rows of ``Page/rowsPerStrip``) or tiles (left to right, top to bottom, padded), as samples.
    static func blocks(_ page: Page) -> [[UInt8]] {
        let pixelBytes = page.samplesPerPixel * page.bits / 8, rowBytes = page.width * pixelBytes
        guard let tile = page.tile else {
            return stride(from: 0, to: page.height, by: page.rowsPerStrip).map { start in
                Array(page.data[(start * rowBytes)..<(min(page.height, start + page.rowsPerStrip) * rowBytes)])
            }
        }
        var blocks: [[UInt8]] = []
        for top in stride(from: 0, to: page.height, by: tile.height) {
            for left in stride(from: 0, to: page.width, by: tile.width) {
                var block = [UInt8](repeating: 0, count: tile.width * tile.height * pixelBytes)
                for y in 0..<min(tile.height, page.height - top) {
                    let n = min(tile.width, page.width - left) * pixelBytes
                    let from = (top + y) * rowBytes + left * pixelBytes
                    block.replaceSubrange(
                        y * tile.width * pixelBytes..<y * tile.width * pixelBytes + n, with: page.data[from..<from + n])
                }
                blocks.append(block)
            }
        }
        return blocks
    }

    /// A strip's or tile's rows as the page stores them: as they are, or differenced (predictor 2) and LZW-coded.
    static func code(_ rows: [UInt8], _ page: Page) -> [UInt8] {
        switch page.coding {
        case .none: return rows
        case .oldStyleLZW: return TestLZW.encode(rows, literalBits: 8, msbFirst: false, earlyChange: false)
        case .lzw(let predictor):
            var data = rows
            if predictor == 2 {
                let rowBytes = (page.tile?.width ?? page.width) * page.samplesPerPixel, spp = page.samplesPerPixel
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
