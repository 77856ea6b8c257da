import CShrinkJPEG
import ShrinkCore

/// A planar decode of a baseline JPEG cut at its restart markers into bands of whole rows of MCUs
/// (``JPEGRestartLayout``), each decoded by a libjpeg decoder of its own: by the reader (the thread that pulls
/// rows) and, while cores would otherwise idle, by helpers lent to the decode, taking bands in order (a ``TileCrew``
/// whose tiles are the bands, ``bandsPerRow`` a row: a thread that finishes a band takes the next one while the other
/// still decodes its own). The Y, Cb and Cr planes are libjpeg's raw planes, which nothing blends across a band's
/// edge, so the rows are the bytes one decoder would give. With helpers there are two rows of bands: they decode the
/// next one while the reader reads this one. Bands start where ``JPEGRestartIndex`` finds them.
///
/// The file's pages before the first band still being decoded are released as bands finish, every
/// ``releaseStep`` bytes (one `madvise` each: with several threads each one interrupts the others to flush their TLBs,
/// so twice as far apart as a single decoder releases them).
///
/// Memory: a row of bands per slot in use (``bandBytes(lumaWidth:layout:scaleDenominator:subsampled:)`` each), per
/// thread a lane (``JPEGBandLane``), and up to ``releaseStep`` of the mapped input beside the bands being decoded.
final class JPEGRestartBands: PlaneDecoding, TileDecoding, @unchecked Sendable {
    let planeSizes: [PixelSize]
    let factors: [(x: Double, y: Double)]
    private(set) var nextRows = [0, 0, 0]
    /// libjpeg's warnings, gathered from every band (see ``RowDecoding/warnings``), read once the decode ends.
    private(set) var warnings: [String] = []

    private let layout: JPEGRestartLayout
    private let bytes: ImageBytes
    private let path: String
    private let maxScans: Int
    private let settings: JPEGBandLane.Settings
    private let index: JPEGRestartIndex
    /// Each plane's bytes from one row of a band to the next, and the rows a band holds.
    private let strides: [Int], capacity: [Int]
    private let readerLane: JPEGBandLane
    /// The next row of bands the reader reads.
    private var row = 0
    /// The threads decoding the bands (made once, at the end of `init`).
    private var crew: TileCrew<JPEGRestartBands>!

    // Guarded by the crew's lock.
    /// Per slot, each plane's row of bands, ``bandsPerRow`` bands of `capacity` rows one below the other (nil until a
    /// band in that slot is taken).
    private var storage: [[UnsafeMutablePointer<UInt8>]?]
    /// Per slot and band in its row, each plane's rows the band filled.
    private var filled: [[[Int]]]
    /// The file's pages behind the first band still being decoded, released every ``releaseStep`` bytes.
    private var pages: ResidentPageRelease
    /// The warning lines of each band decoded so far that had some.
    private var bandWarnings: [Int: [String]] = [:]

    /// Starts the decode of `bytes`' bands (`layout`) at 1/`scaleDenominator`; `helpers`, when given, are offered
    /// `helperBytes` a helper at each band.
    init(
        layout: JPEGRestartLayout, bytes: ImageBytes, path: String, scaleDenominator d: Int, options: DecodeOptions,
        maxScans: Int, helpers: (any DecodeHelping)?, helperBytes: Int
    ) throws(ImageError) {
        self.layout = layout
        self.bytes = bytes
        self.path = path
        self.maxScans = maxScans
        settings = JPEGBandLane.Settings(
            scaleDenominator: d, memoryLimit: options.memoryLimit, fast: options.fast, strict: options.strict)
        index = JPEGRestartIndex(layout, bytes: bytes.bytes)
        guard let lane = JPEGBandLane(bytes: bytes, layout: layout, maxScans: maxScans) else {
            throw ImageError(.outOfMemory, "\(path): cannot create a JPEG decoder")
        }
        readerLane = lane
        let (sizes, perGroup, factors) = try lane.planes(settings, path: path)
        planeSizes = sizes
        self.factors = factors
        strides = sizes.map(\.width)
        // A band is whole row groups (its height a multiple of the MCU's, the scale at most 1/8 of it): each plane's
        // rows are the luma's in the ratio of a group's.
        let lumaRows = layout.bandHeight / d
        capacity = perGroup.map { lumaRows * $0 / max(1, perGroup[0]) }
        pages = ResidentPageRelease(bytes, step: Self.releaseStep)
        let slots = helpers != nil ? 2 : 1
        storage = Array(repeating: nil, count: slots)
        filled = Array(repeating: Array(repeating: [0, 0, 0], count: Self.bandsPerRow), count: slots)
        crew = TileCrew(
            owner: self, columns: Self.bandsPerRow, rows: (layout.bands + Self.bandsPerRow - 1) / Self.bandsPerRow,
            helpers: helpers, helperBytes: helperBytes)
    }

    deinit {
        crew.stop()
        for slot in storage { for plane in slot ?? [] { plane.deallocate() } }
    }

    /// Bands a row of the crew has: two threads each decoding one, and with helpers the next row's while the reader
    /// reads this one's rows, so a thread that is done has another band to take.
    static let bandsPerRow = 2

    /// How much of a mapped input is read before its pages are released: twice the single decoder's step
    /// (`SJ_RELEASE_STEP`), as each release interrupts the threads decoding the other bands.
    static let releaseStep = 2 * Int(SJ_RELEASE_STEP)

    /// The bytes of one band of planes at 1/`d` for an image whose luma is `lumaWidth` wide at that scale: chroma
    /// at half size both ways when `subsampled` (4:2:0), else counted at the luma's size.
    static func bandBytes(lumaWidth: Int, layout: JPEGRestartLayout, scaleDenominator d: Int, subsampled: Bool) -> Int {
        let rows = layout.bandHeight / d
        return subsampled ? lumaWidth * rows + 2 * ((lumaWidth + 1) / 2) * (rows / 2) : 3 * lumaWidth * rows
    }

    // MARK: Reading

    /// Reads the next row of bands (decoded by this thread or a helper) and calls `body(plane, row index, row)` for
    /// each of their rows, plane by plane, top to bottom. Returns false at the end of the image.
    func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool {
        guard row < crew.rows else { return false }
        try crew.read(row: row, lane: readerLane)
        let (planes, rows) = crew.lock.withLock {
            let slot = crew.slot(ofRow: row)
            return (storage[slot]!, filled[slot])
        }
        for p in 0..<3 {
            for (k, filled) in rows.enumerated() {
                let count = min(filled[p], planeSizes[p].height - nextRows[p])
                let band = planes[p] + k * capacity[p] * strides[p]
                for r in 0..<max(0, count) { body(p, nextRows[p] + r, band + r * strides[p]) }
                nextRows[p] += max(0, count)
            }
        }
        row += 1
        return true
    }

    /// Stops the helpers and gathers the warnings: the first band's that had some, and how many more had some.
    func finish() throws(ImageError) {
        crew.stop()
        warnings = crew.lock.withLock {
            guard let first = bandWarnings.keys.min(), let line = bandWarnings[first]?.first else { return [] }
            let more = bandWarnings.count - 1
            return [more > 0 ? "\(line); warnings in \(more) more restart band\(more > 1 ? "s" : "")" : line]
        }
    }

    // MARK: TileDecoding

    func makeLane() -> JPEGBandLane? { JPEGBandLane(bytes: bytes, layout: layout, maxScans: maxScans) }

    func allocate(slot: Int) {
        guard storage[slot] == nil else { return }
        storage[slot] = (0..<3).map { .allocate(capacity: max(1, Self.bandsPerRow * strides[$0] * capacity[$0])) }
    }

    func decode(_ tile: Int, lane: JPEGBandLane) -> Result<Void, ImageError> {
        guard tile < layout.bands else { return .success(()) } // the last row's place beyond the image
        let (start, atMarker) = index.claim(tile)
        // At a marker (damage): in the state one decoder, stuck on it, is in there: the band before's at its end.
        let insufficient = atMarker && tile > 0 ? index.ending(of: tile - 1) : false
        let k = tile % Self.bandsPerRow
        let planes = crew.lock.withLock {
            storage[crew.slot(ofRow: tile / Self.bandsPerRow)]!.enumerated().map { $1 + k * capacity[$0] * strides[$0] }
        }
        do {
            try lane.decode(
                band: tile, offset: start, insufficient: insufficient, into: planes, strides: strides,
                capacity: capacity, settings, path: path)
            index.end(tile, insufficient: lane.endedInsufficient)
            return .success(())
        } catch {
            index.end(tile, insufficient: false)
            return .failure(error)
        }
    }

    func finished(_ tile: Int, _ result: Result<Void, ImageError>, lane: JPEGBandLane) {
        if case .success = result {
            filled[crew.slot(ofRow: tile / Self.bandsPerRow)][tile % Self.bandsPerRow] =
                tile < layout.bands ? lane.rows : [0, 0, 0]
        }
        let first = crew.finishedTiles
        if let below = first < layout.bands ? index.knownStart(first) : bytes.count { pages.release(below: below) }
        let lines = lane.takeWarnings()
        if !lines.isEmpty { bandWarnings[tile, default: []] += lines }
    }
}
