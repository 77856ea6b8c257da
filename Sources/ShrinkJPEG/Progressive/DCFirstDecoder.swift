import ShrinkCore

/// Decodes a progressive JPEG at 1/8 scale without libjpeg's whole-image coefficient buffer.
///
/// At 1/8, libjpeg reduces each full-resolution block to its DC coefficient (a 1×1 IDCT), and scales 4:2:0
/// chroma up with a 2×2 IDCT instead of upsampling it (jdmaster.c picks a chroma DCT scale of 2). So this
/// decoder reads only the scans those need:
/// 1. the DC scans (first and refinement) of every component, keeping one coefficient per block;
/// 2. for 4:2:0 chroma only, that component's AC scans, all at once block by block — one reader per scan
///    over the mapped bytes — so each chroma block's coefficients are final as soon as it is read and go
///    straight through the 2×2 IDCT; nothing but the current block is kept.
/// Luma AC scans, most of the file, are never entropy-decoded: the scan script only finds where they end.
///
/// Memory: 2 bytes per block of every component (DC values) and the 1/8-scale planes (3 bytes per output
/// pixel); about 2.2 MiB for a 24 MP 4:2:0 photo, against libjpeg's 70 MiB of coefficients.
/// Layouts other than gray, 4:4:4 (any equal sampling) and 4:2:0 YCbCr are not handled (``supports``).
struct DCFirstDecoder {
    let script: ScanScript
    let path: String
    /// Per component: 1 (DC only) or 2 (2×2 IDCT).
    let dctScale: [Int]
    /// The output size: the image at 1/8, rounded up.
    let size: PixelSize

    /// Reads the scan script of `bytes`; fails when it is not a progressive Huffman JPEG this path serves
    /// (``unsupportedReason`` then says why).
    init(
        bytes: UnsafeRawBufferPointer, path: String, maxScans: Int = ImageLimits().maxScans,
        release: (Int) -> Void = { _ in }
    ) throws(ImageError) {
        let script = try ScanScript(bytes, path: path, maxScans: maxScans, release: release)
        self.script = script
        self.path = path
        dctScale = script.components.map { c in
            var s = 1
            while s < 8 && script.maxH % (c.h * s * 2) == 0 && script.maxV % (c.v * s * 2) == 0 { s *= 2 }
            return s
        }
        size = PixelSize(width: (script.width + 7) / 8, height: (script.height + 7) / 8)
        if let reason = unsupportedReason { throw ImageError(.unsupportedFeature, "\(path): \(reason)") }
    }

    /// Why this file must take the general path, or nil.
    var unsupportedReason: String? {
        guard script.progressive else { return "not a progressive JPEG" }
        let count = script.components.count
        guard count == 1 || count == 3 else { return "\(count) components" }

        for (i, c) in script.components.enumerated() {
            // After the IDCT scale every component must be at the output resolution (no upsampling left).
            guard dctScale[i] <= 2, c.h * dctScale[i] == script.maxH, c.v * dctScale[i] == script.maxV else {
                return "chroma layout needs upsampling after the 1/8 IDCT"
            }
            guard script.quantTables[c.quantTable] != nil else { return "component \(i) has no quantisation table" }
            guard script.scans.contains(where: { $0.ss == 0 && $0.ah == 0 && $0.components.contains(i) }) else {
                return "component \(i) has no DC scan"
            }
            if dctScale[i] == 2 {
                // libjpeg smooths blocks whose first nine AC coefficients are not complete (jdcoefct.c's block
                // smoothing of partial progressive data), and the 2×2 IDCT uses some of them: only files that
                // refine them to the last bit are decoded here.
                var known = [Int](repeating: -1, count: 10)
                for scan in script.scans where scan.ss > 0 && scan.ss <= 9 && scan.components == [i] {
                    for k in scan.ss...min(9, scan.se) { known[k] = scan.al }
                }
                guard (1...9).allSatisfy({ known[$0] == 0 }) else {
                    return "component \(i)'s low AC coefficients are incomplete (libjpeg would smooth them)"
                }
            }
        }
        return nil
    }

    /// Bytes the decode holds: DC values of every block and the output planes.
    var workingBytes: Int {
        script.components.reduce(0) { $0 + 2 * $1.blocksWide * $1.blocksHigh } + size.pixelCount
            * script.components.count
    }

    /// The decoder's tables and scan readers (a fixed 64 KiB, calibrated against the allocator's high-water mark:
    /// BENCHMARKS.md, "Figures behind the code") and, when the file is mapped, the input pages resident while decoding:
    /// the data of the scans read (DC scans, and the AC scans of 2×2 components), which are released when the decode
    /// ends.
    func stateBytes(mapped: Bool) -> Int {
        guard mapped else { return 64 << 10 }
        let read = script.scans.filter { s in s.ss == 0 || s.components.allSatisfy { dctScale[$0] == 2 } }
        return 64 << 10 + read.reduce(0) { $0 + $1.data.count + 8192 }
    }

    /// Decodes the planes (Y, or Y Cb Cr) at ``size``. With `strict`, a scan that runs out of data, a bad
    /// Huffman code or a missing restart marker is an error; otherwise missing data reads as zeros and each
    /// kind of damage is added to `warnings` once.
    /// `release(range)` is called for input bytes that will not be read again (a mapping drops those pages).
    /// Each component's DC values are freed as soon as its plane is made.
    func decodePlanes(
        bytes: UnsafeRawBufferPointer, strict: Bool, monitor: DecodeMonitor? = nil, warnings: inout [String],
        release: (Range<Int>) -> Void = { _ in }
    ) throws(ImageError) -> [[UInt8]] {
        let comps = script.components
        let dc = try decodeDCValues(
            bytes: bytes, strict: strict, monitor: monitor, warnings: &warnings, release: release)
        var freed = [Bool](repeating: false, count: comps.count)
        defer { for (i, p) in dc.enumerated() where !freed[i] { p.deallocate() } }
        var planes: [[UInt8]] = []
        let width = size.width, height = size.height
        for (i, c) in comps.enumerated() {
            let q = script.quantTables[c.quantTable]!
            var plane = [UInt8](repeating: 0, count: size.pixelCount)
            if dctScale[i] == 1 {
                let q0 = Int(q[0]), values = dc[i]
                plane.withUnsafeMutableBufferPointer { out in
                    for by in 0..<min(c.blocksHigh, height) {
                        for bx in 0..<min(c.blocksWide, width) {
                            out[by * width + bx] = Self.sample(values[by * c.blocksWide + bx], quant: q0)
                        }
                    }
                }
            } else {
                try plane.withUnsafeMutableBufferPointer { out throws(ImageError) in
                    try decodeChroma(
                        component: i, dc: dc[i], quant: q, bytes: bytes, into: out.baseAddress!, strict: strict,
                        warnings: &warnings, release: release)
                }
            }
            dc[i].deallocate()
            freed[i] = true
            planes.append(plane)
            try monitor?.checkpoint(row: 0)
        }
        return planes
    }

    /// Each component's plane when only DC values are used: one sample per block of the component (its blocks
    /// that hold image), so 4:2:0 chroma comes out at half the luma plane's size, as YUV 4:2:0 output wants it.
    var dcPlaneSizes: [PixelSize] { script.components.map { PixelSize(width: $0.blocksWide, height: $0.blocksHigh) } }

    /// Plane samples per luma sample of the DC planes (1 for luma, 0.5 for 4:2:0 chroma).
    var dcPlaneFactors: [(x: Double, y: Double)] {
        script.components.map { (x: Double($0.h) / Double(script.maxH), y: Double($0.v) / Double(script.maxV)) }
    }

    /// Bytes a DC-only planar decode holds: DC values of every block and one byte per block for the planes.
    var dcPlanesWorkingBytes: Int { script.components.reduce(0) { $0 + 3 * $1.blocksWide * $1.blocksHigh } }

    /// As ``stateBytes(mapped:)`` for a DC-only planar decode, which reads the DC scans and nothing else.
    func dcPlanesStateBytes(mapped: Bool) -> Int {
        guard mapped else { return 64 << 10 }
        return 64 << 10 + script.scans.filter { $0.ss == 0 }.reduce(0) { $0 + $1.data.count + 8192 }
    }

    /// Decodes every component's DC plane (``dcPlaneSizes``): the DC scans only; no AC scan is entropy-decoded,
    /// chroma included. Damage, `strict` and `release` as in ``decodePlanes(bytes:strict:monitor:warnings:release:)``.
    func decodeDCPlanes(
        bytes: UnsafeRawBufferPointer, strict: Bool, monitor: DecodeMonitor? = nil, warnings: inout [String],
        release: (Range<Int>) -> Void = { _ in }
    ) throws(ImageError) -> [[UInt8]] {
        let dc = try decodeDCValues(
            bytes: bytes, strict: strict, monitor: monitor, warnings: &warnings, release: release)
        defer { for p in dc { p.deallocate() } }
        return script.components.enumerated().map { i, c in
            let q0 = Int(script.quantTables[c.quantTable]![0]), values = dc[i], n = c.blocksWide * c.blocksHigh
            return [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
                let base = out.baseAddress!
                for k in 0..<n { base[k] = Self.sample(values[k], quant: q0) }
                initialized = n
            }
        }
    }

    /// Every component's DC values (2 bytes per block, owned by the caller): all DC scans decoded, each scan's
    /// bytes released after it and the monitor checked. Fails as the decodes do; nothing is left allocated then.
    private func decodeDCValues(
        bytes: UnsafeRawBufferPointer, strict: Bool, monitor: DecodeMonitor?, warnings: inout [String],
        release: (Range<Int>) -> Void
    ) throws(ImageError) -> [UnsafeMutablePointer<Int16>] {
        // A file cut before its EOI is truncated (libjpeg, Pillow and libvips reject it), whichever scans this
        // path reads, so a 1/8 decode and a full decode agree.
        guard script.endsWithEOI else {
            throw ImageError(.truncated, "\(path): JPEG data ends before the image does (no EOI marker)")
        }
        let dc = script.components.map { c in
            let p = UnsafeMutablePointer<Int16>.allocate(capacity: max(1, c.blocksWide * c.blocksHigh))
            p.initialize(repeating: 0, count: max(1, c.blocksWide * c.blocksHigh))
            return p
        }
        do {
            for scan in script.scans where scan.ss == 0 {
                try decodeDCScan(scan, bytes: bytes, dc: dc, strict: strict, warnings: &warnings)
                release(scan.data)
                try monitor?.checkpoint(row: 0)
            }
        } catch {
            for p in dc { p.deallocate() }
            throw error
        }
        return dc
    }

    /// A block's sample at 1/8: its DC value dequantised, divided by 8 (rounded) and level-shifted, as libjpeg's
    /// 1×1 IDCT gives it — with its 16-bit quantiser multiplier, and its range limit, which clamps results within
    /// ±512 of the centre and wraps beyond (damaged data gets there).
    @inline(__always)
    static func sample(_ dc: Int16, quant q0: Int) -> UInt8 {
        let x = (Int(dc) &* Int(Int16(truncatingIfNeeded: q0)) &+ 4) &>> 3
        // Within ±512 the range limit is a clamp (nearly always: one predictable branch); beyond, its table.
        if UInt(bitPattern: x &+ 512) < 1024 { return UInt8(clamping: x &+ 128) }
        return rangeLimit[x & 1023]
    }

    /// libjpeg's post-IDCT range limit, indexed by the result & 1023. Written once, then only read.
    nonisolated(unsafe) static let rangeLimit: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
        for y in 0..<1024 { table[y] = y < 128 ? UInt8(y + 128) : y < 512 ? 255 : y < 896 ? 0 : UInt8(y - 896) }
        return UnsafePointer(table)
    }()

    private func table(_ scan: ScanScript.Scan, dc: Bool, _ k: Int) throws(ImageError) -> HuffmanTable {
        guard let t = scan.tables[(dc ? 0 : 4) + (dc ? scan.dcTables[k] : scan.acTables[k])] else {
            throw ImageError(.corruptData, "\(path): a scan uses an undefined Huffman table")
        }
        return t
    }

    /// One DC scan (first or refinement), interleaved or not, into the DC values.
    private func decodeDCScan(
        _ scan: ScanScript.Scan, bytes: UnsafeRawBufferPointer, dc: [UnsafeMutablePointer<Int16>],
        strict: Bool, warnings: inout [String]
    ) throws(ImageError) {
        var reader = EntropyReader(bytes, data: scan.data, restartInterval: scan.restartInterval)
        var owners: [HuffmanTable] = []
        if scan.ah == 0 { for k in scan.components.indices { owners.append(try table(scan, dc: true, k)) } }
        let comps = script.components
        // The blocks of one MCU in scan order (a one-component scan's MCU is one block, in raster order):
        // for each, its component's slot in the scan, its offset in the MCU, and its component's geometry.
        let single = scan.components.count == 1
        var layout: [DCScanLayout.Unit] = []
        for (k, ci) in scan.components.enumerated() {
            let c = comps[ci]
            for v in 0..<(single ? 1 : c.v) {
                for h in 0..<(single ? 1 : c.h) {
                    layout.append(
                        DCScanLayout.Unit(
                            slot: k, dx: h, dy: v, h: single ? 1 : c.h, v: single ? 1 : c.v,
                            wide: c.blocksWide, high: c.blocksHigh, values: dc[ci]))
                }
            }
        }
        let mcusWide = single ? comps[scan.components[0]].blocksWide : script.mcusWide
        let mcusHigh = single ? comps[scan.components[0]].blocksHigh : script.mcusHigh
        let outcome = try withExtendedLifetime(owners) { () throws(ImageError) -> DCScanLayout.Outcome in
            let codes = owners.map(\.code)
            return try layout.withUnsafeBufferPointer { units throws(ImageError) in
                try codes.withUnsafeBufferPointer { codes throws(ImageError) in
                    try DCScanLayout.decode(
                        &reader, units: units, codes: codes, mcusWide: mcusWide, mcusHigh: mcusHigh,
                        refine: scan.ah > 0, al: scan.al, strict: strict, path: path)
                }
            }
        }
        if strict && reader.fakeBitsUsed { throw ImageError(.truncated, "\(path): a DC scan ends early") }
        if outcome.badCode { Self.note("corrupt JPEG data: bad Huffman code in a DC scan", in: &warnings) }
        if reader.ranShortAnywhere {
            Self.note("corrupt JPEG data: a DC scan ends early (missing data read as zeros)", in: &warnings)
        }
        if reader.resynchronised {
            Self.note("corrupt JPEG data: restart markers missing or out of place", in: &warnings)
        }
    }

    /// Adds `warning` to `warnings` unless it is there already.
    private static func note(_ warning: String, in warnings: inout [String]) {
        if !warnings.contains(warning) { warnings.append(warning) }
    }

    /// A 2×2-IDCT component: its AC scans read together, block by block, each block's 2×2 output written to
    /// `plane` (clipped to the output size). Only the current block's coefficients are held.
    private func decodeChroma(
        component ci: Int, dc: UnsafeMutablePointer<Int16>, quant: [UInt16], bytes: UnsafeRawBufferPointer,
        into plane: UnsafeMutablePointer<UInt8>, strict: Bool, warnings: inout [String],
        release: (Range<Int>) -> Void
    ) throws(ImageError) {
        var badCode = false
        let c = script.components[ci]
        let scans = script.scans.filter { $0.ss > 0 && $0.components == [ci] }
        let readers = UnsafeMutablePointer<EntropyReader>.allocate(capacity: max(1, scans.count))
        for (i, scan) in scans.enumerated() {
            (readers + i).initialize(to: EntropyReader(bytes, data: scan.data, restartInterval: scan.restartInterval))
        }
        defer {
            readers.deinitialize(count: scans.count)
            readers.deallocate()
        }
        var owners: [HuffmanTable] = []
        for s in scans { owners.append(try table(s, dc: false, 0)) }
        let codes = owners.map(\.code)
        let bands = scans.map { ACDecoding.Band(ss: $0.ss, se: $0.se, al: $0.al) }
        let refines = scans.map { $0.ah > 0 }
        let eobRuns = UnsafeMutablePointer<Int>.allocate(capacity: max(1, scans.count))
        eobRuns.initialize(repeating: 0, count: max(1, scans.count))
        defer { eobRuns.deallocate() }
        let coef = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { coef.deallocate() }
        let idct = ReducedIDCT(quant: quant)
        let zz = ACDecoding.zigzag
        let width = size.width, height = size.height, count = scans.count
        try withExtendedLifetime(owners) { () throws(ImageError) in
            for by in 0..<c.blocksHigh {
                for bx in 0..<c.blocksWide {
                    coef.initialize(repeating: 0, count: 64)
                    coef[0] = Int32(dc[by * c.blocksWide + bx])
                    var nonzero: UInt64 = 0
                    for s in 0..<count {
                        if try readers[s].restartIfDue(strict: strict, path: path) { eobRuns[s] = 0 }
                        let ok =
                            refines[s]
                            ? ACDecoding.refine(&readers[s], codes[s], bands[s], &eobRuns[s], coef, &nonzero, zz)
                            : ACDecoding.first(&readers[s], codes[s], bands[s], &eobRuns[s], coef, &nonzero, zz)
                        if !ok {
                            if strict { throw ImageError(.corruptData, "\(path): bad Huffman code in an AC scan") }
                            badCode = true
                        }
                    }
                    let x = 2 * bx, y = 2 * by
                    if x < width && y < height {
                        idct.transform(
                            coef, into: plane + y * width + x, stride: width, columns: min(2, width - x),
                            rows: min(2, height - y))
                    }
                }
                if by % 32 == 31 {
                    for s in 0..<count {
                        let start = scans[s].data.lowerBound
                        release(start..<max(start, readers[s].position - 8))
                    }
                }
            }
            for s in 0..<count { release(scans[s].data) }
        }
        let cut = (0..<scans.count).contains(where: { readers[$0].ranShortAnywhere })
        if (0..<scans.count).contains(where: { readers[$0].resynchronised }) {
            Self.note("corrupt JPEG data: restart markers missing or out of place", in: &warnings)
        }
        if strict && cut { throw ImageError(.truncated, "\(path): an AC scan ends early") }
        if badCode { Self.note("corrupt JPEG data: bad Huffman code in an AC scan", in: &warnings) }
        if cut { Self.note("corrupt JPEG data: an AC scan ends early (missing data read as zeros)", in: &warnings) }
    }
}
