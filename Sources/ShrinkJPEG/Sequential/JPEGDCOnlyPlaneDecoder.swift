import ShrinkCore

/// Y, Cb and Cr planes of a sequential JPEG at 1/8, decoded by ``BaselineDCDecoder`` one MCU row a group: each
/// block's DC value is its sample, the AC coefficients are skipped as they are read. The planes are the bytes
/// libjpeg's planar decode at 1/8 gives.
///
/// Damage is handled as the libjpeg route handles it: scan data that runs to the end of the file is `.truncated`
/// (libjpeg's read-ahead hits the end); a bad Huffman code, a scan cut short by a marker, a misplaced restart
/// marker or no EOI after the scan's closing marker is a warning (an error with `strict`).
/// Memory: ``BaselineDCDecoder/stateBytes(mapped:)``; the input's pages are released behind the reader.
final class JPEGDCOnlyPlaneDecoder: PlaneDecoding {
    let planeSizes: [PixelSize]
    let factors: [(x: Double, y: Double)]
    private(set) var nextRows: [Int]
    private(set) var warnings: [String] = []

    private let bytes: ImageBytes
    private let decoder: BaselineDCDecoder
    private let strict: Bool
    private let monitor: DecodeMonitor?
    private var reader: EntropyReader
    private var nextMCURow = 0
    private var released: Int
    private var badCode = false
    /// One MCU row of each plane, and the loop's view of the blocks (pointing into them).
    private let rows: [UnsafeMutablePointer<UInt8>]
    private let blocks: UnsafeMutableBufferPointer<DCOnlyRow.Block>
    private let pred = UnsafeMutablePointer<Int>.allocate(capacity: 4)

    init(bytes: ImageBytes, decoder: BaselineDCDecoder, strict: Bool, monitor: DecodeMonitor?) {
        self.bytes = bytes
        self.decoder = decoder
        self.strict = strict
        self.monitor = monitor
        planeSizes = decoder.planeSizes
        factors = decoder.factors
        nextRows = [Int](repeating: 0, count: planeSizes.count)
        reader = EntropyReader(bytes.bytes, data: decoder.scan.data, restartInterval: decoder.scan.restartInterval)
        released = 0
        rows = decoder.script.components.indices.map { i in
            let shape = decoder.rowShape(i)
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, shape.rows * shape.width))
            row.initialize(repeating: 0, count: max(1, shape.rows * shape.width))
            return row
        }
        blocks = .allocate(capacity: decoder.units.count)
        let single = decoder.single
        for (i, u) in decoder.units.enumerated() {
            let c = decoder.script.components[u.plane], width = decoder.rowShape(u.plane).width
            (blocks.baseAddress! + i).initialize(
                to: DCOnlyRow.Block(
                    dc: u.dc.code, ac: u.ac.code, skip: UnsafePointer(u.skip.entries),
                    out: rows[u.plane] + u.dy * width + u.dx,
                    step: single ? 1 : c.h, slot: u.slot, quant: u.quant))
        }
        pred.initialize(repeating: 0, count: 4)
    }

    deinit {
        for row in rows { row.deallocate() }
        blocks.deinitialize().deallocate()
        pred.deallocate()
    }

    /// Decodes the next MCU row and hands out each plane's rows of it that hold image.
    func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool {
        guard nextMCURow < decoder.mcusHigh else { return false }
        let path = decoder.path
        // The tables the blocks point into live as long as `decoder` (held by self).
        // A few MCUs at a time, the input's pages released behind the reader between them.
        var m = 0
        while m < decoder.mcusWide {
            let next = min(decoder.mcusWide, m + BaselineDCDecoder.mcusBetweenReleases)
            badCode =
                try DCOnlyRow.decode(
                    &reader, blocks: UnsafeBufferPointer(blocks), mcus: m..<next, pred: pred,
                    strict: strict, path: path) || badCode
            if reader.position - released >= BaselineDCDecoder.releaseEvery {
                let upTo = reader.position - 16
                bytes.releaseResidentPages(in: released..<upTo)
                released = upTo
            }
            m = next
        }
        // The data ran out with no marker: cut short (libjpeg, reading ahead, hits the end of the file too).
        if reader.reachedEndOfData {
            throw ImageError(.truncated, "\(path): JPEG data ends before the image does (decoding row \(nextRows[0]))")
        }
        if reader.fakeBitsUsed && strict {
            throw ImageError(.corruptData, "\(path): the scan ends early (a marker inside the image data)")
        }
        for (i, size) in planeSizes.enumerated() {
            let shape = decoder.rowShape(i)
            for r in 0..<shape.rows where nextRows[i] < size.height {
                body(i, nextRows[i], rows[i] + r * shape.width)
                nextRows[i] += 1
            }
        }
        nextMCURow += 1
        try monitor?.checkpoint(row: nextRows[0])
        if nextMCURow == decoder.mcusHigh { try ending() }
        return true
    }

    /// After the last MCU row: the warnings for damage stepped over, and the check for the EOI marker.
    private func ending() throws(ImageError) {
        let path = decoder.path
        if badCode { warnings.append("corrupt JPEG data: bad Huffman code") }
        if reader.ranShortAnywhere {
            warnings.append("corrupt JPEG data: the scan ends early (missing data read as zeros)")
        }
        if reader.resynchronised { warnings.append("corrupt JPEG data: restart markers missing or out of place") }
        // The scan ended at a marker; no EOI after it costs no pixel: a warning, as libjpeg's route has it.
        if !Self.hasEOI(bytes.bytes, from: max(decoder.scan.data.lowerBound, reader.position - 16)) {
            if strict { throw ImageError(.truncated, "\(path): JPEG data ends before its EOI marker") }
            warnings.append("corrupt JPEG data: premature end of JPEG file (no EOI marker)")
        }
        bytes.releaseResidentPages(in: released..<bytes.count)
        released = bytes.count
    }

    /// True when an EOI marker (0xFF 0xD9, fill bytes allowed) follows `start` in `bytes`: the markers after it,
    /// found as the entropy reader finds them, until one is EOI.
    static func hasEOI(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var p = start
        while let (at, _) = EntropyReader.nextMarker(bytes, from: p, end: bytes.count) {
            if bytes[at + 1] == 0xD9 { return true }
            p = at + 2
        }
        return false
    }

    func finish() throws(ImageError) {}
}
