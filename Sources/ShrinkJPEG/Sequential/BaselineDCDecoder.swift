import ShrinkCore

/// Decodes a sequential (baseline or extended) Huffman JPEG at 1/8 as Y, Cb, Cr planes by keeping each block's
/// DC coefficient and skipping its AC coefficients as they are entropy-decoded.
///
/// At 1/8 libjpeg reduces each block to its DC value too (a 1×1 IDCT), and Shrink's planar route keeps chroma
/// at the luma's DCT scale, so each plane sample is one block's DC value — but libjpeg still extracts every AC
/// value it then ignores. Here an AC code and its value bits are dropped in one lookup (``ACSkipTable``), so
/// the entropy decode, the whole cost at this scale, runs faster than libjpeg's, and the planes are the same
/// bytes: `(DC × Q0 + 4) >> 3 + 128`, clamped, as libjpeg's 1×1 IDCT gives them.
///
/// Serves files whose frame is 8-bit sequential Huffman and whose first scan interleaves every component, each
/// with its tables defined and at most 10 blocks an MCU, sampled so that libjpeg's 1/8 planes are DC values
/// (4:4:4, 4:2:2, 4:4:0, 4:2:0; not 4:1:0); anything else (one scan per component, arithmetic coding, missing
/// tables) is left to libjpeg (``init(bytes:path:)`` fails).
/// Memory: ``stateBytes(mapped:)``; nothing grows with the image but one MCU row of samples.
struct BaselineDCDecoder {
    /// One block of the MCU: its component (plane), the scan slot whose DC prediction it updates, its offset in
    /// the MCU and its tables.
    struct Unit {
        let plane: Int
        let slot: Int
        let dx: Int, dy: Int
        let dc: HuffmanTable, ac: HuffmanTable, skip: ACSkipTable
        let quant: Int
    }

    let script: ScanScript
    let path: String
    let scan: ScanScript.Scan
    let units: [Unit]

    /// Reads the headers up to the first scan of `bytes`; fails (`.unsupportedFeature` or the header's own
    /// error) when the file is not one this decoder serves.
    init(bytes: UnsafeRawBufferPointer, path: String) throws(ImageError) {
        let script = try ScanScript(bytes, path: path, maxScans: 1)
        guard !script.progressive, let scan = script.scans.first else {
            throw ImageError(.unsupportedFeature, "\(path): not a sequential JPEG")
        }
        guard scan.components.count == script.components.count else {
            throw ImageError(.unsupportedFeature, "\(path): the first scan does not hold every component")
        }
        var units: [Unit] = []
        var skips: [Int: ACSkipTable] = [:]
        for (slot, ci) in scan.components.enumerated() {
            let c = script.components[ci]
            guard let dc = scan.tables[scan.dcTables[slot]], let ac = scan.tables[4 + scan.acTables[slot]],
                let quant = script.quantTables[c.quantTable]
            else {
                throw ImageError(.unsupportedFeature, "\(path): a component's tables are not all defined")
            }
            // libjpeg refuses a DC table with a symbol above 15 (JERR_BAD_HUFF_TABLE); leave it that refusal.
            guard (0..<dc.symbolCount).allSatisfy({ dc.symbols[$0] <= 15 }) else {
                throw ImageError(.unsupportedFeature, "\(path): a DC table has symbols above 15")
            }
            let skip = skips[4 + scan.acTables[slot]] ?? ACSkipTable(ac)
            skips[4 + scan.acTables[slot]] = skip
            let single = scan.components.count == 1
            for dy in 0..<(single ? 1 : c.v) {
                for dx in 0..<(single ? 1 : c.h) {
                    units.append(
                        Unit(plane: ci, slot: slot, dx: dx, dy: dy, dc: dc, ac: ac, skip: skip, quant: Int(quant[0])))
                }
            }
        }
        guard units.count <= 10 else { throw ImageError(.unsupportedFeature, "\(path): more than 10 blocks an MCU") }
        // libjpeg widens a chroma component's IDCT at 1/8 when its sampling divides the luma's by 2 or more both
        // ways (4:1:0 and the like) — its planes then are not DC values; 4:2:0 is the exception Shrink's planar
        // route makes (chroma kept at the luma's scale, its DC values).
        let comps = script.components
        let is420 =
            comps.count == 3 && comps[0].h == 2 && comps[0].v == 2 && comps[1...].allSatisfy { $0.h == 1 && $0.v == 1 }
        let widened = comps.contains {
            $0.h * 2 <= script.maxH && script.maxH % ($0.h * 2) == 0
                && $0.v * 2 <= script.maxV && script.maxV % ($0.v * 2) == 0
        }
        guard is420 || !widened else {
            throw ImageError(.unsupportedFeature, "\(path): chroma sampled so that libjpeg widens its IDCT at 1/8")
        }
        self.script = script
        self.path = path
        self.scan = scan
        self.units = units
    }

    /// True for a one-component scan, whose MCU is one block in raster order.
    var single: Bool { scan.components.count == 1 }
    /// MCUs across and down the scan.
    var mcusWide: Int { single ? script.components[0].blocksWide : script.mcusWide }
    var mcusHigh: Int { single ? script.components[0].blocksHigh : script.mcusHigh }

    /// Each plane: one sample per block of its component (the image at 1/8, rounded up; 4:2:0 chroma at half).
    var planeSizes: [PixelSize] { script.components.map { PixelSize(width: $0.blocksWide, height: $0.blocksHigh) } }

    /// Plane samples per luma sample of each plane.
    var factors: [(x: Double, y: Double)] {
        script.components.map { (x: Double($0.h) / Double(script.maxH), y: Double($0.v) / Double(script.maxV)) }
    }

    /// Samples in one MCU row of plane `i`: its rows and their width (whole MCUs, padding included).
    func rowShape(_ i: Int) -> (rows: Int, width: Int) {
        let c = script.components[i]
        return single ? (1, mcusWide) : (c.v, mcusWide * c.h)
    }

    /// Bytes the decode holds: its tables (the Huffman tables the header built, 16 KiB a skip table), one MCU row
    /// of samples, and, when the input is mapped, the pages read and not yet released: up to ``releaseEvery``
    /// bytes, then what ``mcusBetweenReleases`` MCUs can take before the next check (at most 500 bytes a block:
    /// 64 codes of 31 bits, every byte stuffed), and the kernel's 64 KiB fault-around.
    func stateBytes(mapped: Bool) -> Int {
        let rows = script.components.indices.reduce(0) { $0 + rowShape($1).rows * rowShape($1).width }
        return 32 << 10 + 16 << 10 * Set(units.map { ObjectIdentifier($0.skip) }).count + rows
            + (mapped ? Self.releaseEvery + Self.mcusBetweenReleases * units.count * 500 + 64 << 10 : 0)
    }

    /// Input bytes read between two releases of the pages behind the decoder.
    static let releaseEvery = 256 << 10
    /// MCUs decoded between two checks for pages to release.
    static let mcusBetweenReleases = 64
}
