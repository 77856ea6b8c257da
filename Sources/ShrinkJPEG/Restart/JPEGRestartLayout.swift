import ShrinkCore

/// Where a baseline JPEG's restart markers let it be cut into bands of whole rows of MCUs that decode apart, each by a
/// libjpeg decoder of its own (``JPEGRestartBands``): the file's headers without their metadata, and the band's size.
///
/// Serves 8-bit sequential Huffman YCbCr files whose one scan interleaves the three components and whose restart
/// intervals end on rows of MCUs (one row an interval, as phones and `cjpeg -restart 1` write it, or a divisor or
/// multiple of a row), in bands of at least ``bandMCURows`` rows of MCUs, a whole number of the rows from one such end
/// to the next, with at least two bands; anything else is nil and decodes on one libjpeg decoder. Reading it walks the
/// headers up to the scan; the caller checks that what it read is what libjpeg read (``size``, ``sampling``,
/// ``interval``).
struct JPEGRestartLayout: Sendable {
    /// Rows of MCUs a band has at least: enough decoding to be worth a hand-over between threads and a libjpeg
    /// header read (BENCHMARKS.md, "JPEG restart intervals").
    static let bandMCURows = 8

    /// The fewest pixels an image has to be cut into bands: below, the split's own cost (a libjpeg start per band and
    /// per helper, the look for markers) is more than the threads save (BENCHMARKS.md, "JPEG restart intervals").
    static let minimumPixels = 5_000_000

    /// SOI, then every segment of the file up to and including its SOS but the metadata (APP1–APP13, APP15 and COM):
    /// what a band's decoder reads before the band's data.
    let header: [UInt8]
    /// The offset in ``header`` of the frame's 16-bit height, patched to each band's.
    let heightOffset: Int
    /// The offset in the file of the scan's first entropy-coded byte.
    let dataStart: Int
    /// The image's height, and the pixel rows of every band but the last.
    let imageHeight: Int, bandHeight: Int
    /// Bands in all, and restart intervals in a band (the last may have fewer).
    let bands: Int, intervalsPerBand: Int
    /// The frame's size, its components' sampling factors (across, down) and the restart interval in MCUs, as read.
    let size: PixelSize, sampling: [(h: Int, v: Int)], interval: Int

    /// The layout of the JPEG in `bytes`, or nil when it cannot be cut (see above).
    init?(bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        var header: [UInt8] = [0xFF, 0xD8]
        var heightOffset: Int?, size: PixelSize?, sampling: [(h: Int, v: Int)] = [], interval = 0
        var pos = 2
        while true {
            guard pos + 4 <= n, bytes[pos] == 0xFF else { return nil }
            let marker = bytes[pos + 1]
            if marker == 0xFF { // a fill byte
                pos += 1
                continue
            }
            // Markers without a length (TEM, RSTn) have no place here: libjpeg would read what follows otherwise.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { return nil }
            let length = u16(pos + 2)
            guard length >= 2, pos + 2 + length <= n else { return nil }
            let body = pos + 4, end = pos + 2 + length
            switch marker {
            case 0xC0, 0xC1: // baseline or extended sequential Huffman
                guard heightOffset == nil, length >= 17, bytes[body] == 8, bytes[body + 5] == 3 else { return nil }
                sampling = (0..<3).map { (Int(bytes[body + 7 + 3 * $0] >> 4), Int(bytes[body + 7 + 3 * $0] & 15)) }
                heightOffset = header.count + 5
                size = PixelSize(width: u16(body + 3), height: u16(body + 1))
            case 0xC2...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                return nil // progressive, lossless or arithmetic: one scan per band does not hold
            case 0xDD:
                guard length == 4 else { return nil }
                interval = u16(body)
            case 0xDA:
                // Every component in the one scan.
                guard heightOffset != nil, length == 12, bytes[body] == 3 else { return nil }
            default:
                break
            }
            let metadata = (0xE1...0xED).contains(marker) || marker == 0xEF || marker == 0xFE
            if !metadata { header.append(contentsOf: bytes[pos..<end]) }
            pos = end
            if marker == 0xDA { break }
        }
        guard let heightOffset, let size, size.width > 0, size.height > 0, interval > 0,
            sampling.allSatisfy({ (1...4).contains($0.h) && (1...4).contains($0.v) })
        else { return nil }
        // A band starts where an interval and a row of MCUs both end: every lcm(interval, MCUs a row) MCUs.
        let mcuWidth = 8 * sampling.map(\.h).max()!, mcuHeight = 8 * sampling.map(\.v).max()!
        let mcusWide = (size.width + mcuWidth - 1) / mcuWidth, mcusHigh = (size.height + mcuHeight - 1) / mcuHeight
        let unit = interval / Self.gcd(interval, mcusWide) * mcusWide // MCUs
        let unitRows = unit / mcusWide
        let bandRows = (Self.bandMCURows + unitRows - 1) / unitRows * unitRows
        guard bandRows < mcusHigh else { return nil }
        self.header = header
        self.heightOffset = heightOffset
        self.size = size
        self.sampling = sampling
        self.interval = interval
        dataStart = pos
        imageHeight = size.height
        bandHeight = bandRows * mcuHeight
        bands = (mcusHigh + bandRows - 1) / bandRows
        intervalsPerBand = bandRows * mcusWide / interval
    }

    /// Pixel rows of band `b`.
    func height(ofBand b: Int) -> Int { b < bands - 1 ? bandHeight : imageHeight - (bands - 1) * bandHeight }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
