import ShrinkCore

/// The blocks of one decode of a TIFF page read from its samples — its tiles, or runs of whole strips — shared by the
/// threads that decode them (a ``TileCrew``: the reader, ``TIFFRowDecoder`` on the thread that pulls rows, and helpers
/// lent while cores would otherwise idle), each with its own ``TIFFBlockLane``. A block is copied into its own columns
/// of its row's band (tiles at full size), or at 1/d summed in the lane and poured into the decode's sums under the
/// crew's lock. Helpers decode the next row of blocks while the reader reads this one, never further: at full size
/// into a second band, made the first time a tile is taken ahead; at 1/d into a ring of sums a row of blocks deeper.
/// The file's pages below the first block still being decoded are released as blocks finish (every MiB), so a large
/// mapped file does not stay resident.
///
/// Memory: a band per slot in use (the page's width × a tile's height of stored samples) or, at 1/d, the sums
/// (``bytes(_:format:reduction:helped:)``); per thread a lane.
final class TIFFBlockRows: TileDecoding, @unchecked Sendable {
    private let page: TIFFPage
    /// A block's size: a tile, or the page's width × whole strips.
    private let block: PixelSize
    /// Blocks across.
    private let columns: Int
    private let reduction: Int
    private let bytes: ImageBytes
    private let path: String
    private let maxAllocation: Int
    private let format: PixelFormat
    private let ink: any InkConverting
    private let monitor: DecodeMonitor?
    /// The threads decoding the blocks (made once, at the end of `init`).
    private var crew: TileCrew<TIFFBlockRows>!

    // Guarded by the crew's lock.
    /// At 1/d: the decode's sums, every block's poured in.
    private let sums: BoxReducer?
    /// At full size: per slot, the band (nil until a block of a row in that slot is taken).
    private var bands: [UnsafeMutablePointer<UInt8>?]
    /// The file's pages behind the first block still being decoded, released every MiB.
    private var pages: ResidentPageRelease
    /// The first warning libtiff gave a helper.
    private var helperWarning: String?

    /// The blocks of `page` (``block(_:)``), decoded at 1/`reduction` (converted to `format`, ink through `ink`);
    /// `helpers`, when given, are offered `helperBytes` a helper at each row. A stripped page is read at 1/d only.
    init(
        page: TIFFPage, bytes: ImageBytes, path: String, maxAllocation: Int, format: PixelFormat,
        ink: any InkConverting, reduction d: Int, helpers: (any DecodeHelping)?, helperBytes: Int,
        monitor: DecodeMonitor?
    ) {
        self.page = page
        let block = Self.block(page)
        self.block = block
        columns = (page.size.width + block.width - 1) / block.width
        let rows = (page.size.height + block.height - 1) / block.height
        reduction = d
        self.bytes = bytes
        self.path = path
        self.maxAllocation = maxAllocation
        self.format = format
        self.ink = ink
        self.monitor = monitor
        let slots = helpers != nil && columns * rows > 1 ? 2 : 1
        sums =
            d > 1
            ? BoxReducer(source: page.size, d: d, channels: format.channels, bandRows: Self.ringRows(block, d, slots))
            : nil
        bands = Array(repeating: nil, count: slots)
        pages = ResidentPageRelease(bytes, step: 1 << 20)
        crew = TileCrew(owner: self, columns: columns, rows: rows, helpers: helpers, helperBytes: helperBytes)
    }

    deinit {
        crew.stop()
        for band in bands { band?.deallocate() }
    }

    /// Rows of a stripped page a block spans at least: enough work to be worth a hand-over between threads.
    static let stripRows = 16

    /// The tallest strips read a block at a time (libvips writes 128 rows): a block's sums, and the ring of them,
    /// grow with its height, where rows streamed one at a time hold one.
    static let maxStripRows = 128

    /// `page` can be read a block at a time on several threads: tiled, or in strips of at most ``maxStripRows`` rows,
    /// with more than one block.
    static func splits(_ page: TIFFPage) -> Bool {
        (page.tile != nil || page.rowsPerStrip <= maxStripRows) && blockCount(page) > 1
    }

    /// The most a stripped page's runs may hold at 1/d, helped (the decode's ring and one lane's sums), to be read on
    /// threads: more, and its rows stream on one thread (a run's sums grow with the page's width over d, where a
    /// streamed row's do not).
    static let maxStripSums = 2 << 20

    /// A stripped page at 1/`d` is worth reading in runs on threads: it splits, and its sums stay small.
    static func splitsStrips(_ page: TIFFPage, format: PixelFormat, reduction d: Int) -> Bool {
        guard page.tile == nil, d > 1, splits(page) else { return false }
        let held =
            bytes(page, format: format, reduction: d, helped: true)
            + TIFFBlockLane.bytes(page, block: block(page), format: format, reduction: d)
        return held <= maxStripSums
    }

    /// What libtiff holds per handle for the page's strip or tile offsets and byte counts (each lane opens its own).
    static func offsetBytes(_ page: TIFFPage) -> Int {
        let tile =
            page.tile ?? PixelSize(width: page.size.width, height: max(1, min(page.rowsPerStrip, page.size.height)))
        return 16 * ((page.size.width + tile.width - 1) / tile.width)
            * ((page.size.height + tile.height - 1) / tile.height)
    }

    /// A block of `page`: a tile (cut to the page where it is larger: a small image in one tall tile), or the page's
    /// width × as many whole strips as make ``stripRows`` rows.
    static func block(_ page: TIFFPage) -> PixelSize {
        if let tile = page.tile {
            return PixelSize(width: min(tile.width, page.size.width), height: min(tile.height, page.size.height))
        }
        let strip = max(1, min(page.rowsPerStrip, page.size.height))
        return PixelSize(width: page.size.width, height: min(page.size.height, (stripRows + strip - 1) / strip * strip))
    }

    /// Blocks `page` has.
    static func blockCount(_ page: TIFFPage) -> Int {
        let block = Self.block(page)
        return (page.size.width + block.width - 1) / block.width
            * ((page.size.height + block.height - 1) / block.height)
    }

    /// Source rows the sums' ring spans: `slots` rows of blocks and the reduced row the one before them left
    /// unfinished.
    private static func ringRows(_ block: PixelSize, _ d: Int, _ slots: Int) -> Int { slots * block.height + d }

    /// The bytes a decode of `page` holds besides its reader's lane: a band of stored samples, or at 1/d the sums;
    /// `helped`: as many again at full size (the band helpers fill ahead), at 1/d a ring one row of blocks deeper.
    static func bytes(_ page: TIFFPage, format: PixelFormat, reduction d: Int, helped: Bool) -> Int {
        let block = Self.block(page), slots = helped ? 2 : 1
        guard d > 1 else { return slots * page.size.width * block.height * page.bytesPerPixel }
        return BoxReducer.bytes(
            source: page.size, d: d, channels: format.channels, bandRows: ringRows(block, d, slots))
    }

    /// The first warning libtiff gave a helper, once the decode has stopped.
    var warning: String? { crew.lock.withLock { helperWarning } }

    /// Bytes from one row of a band to the next.
    var bandStride: Int { page.size.width * page.bytesPerPixel }

    /// The band of block row `r` (full size; read once ``read(row:lane:)`` returned for it).
    func band(blockRow r: Int) -> UnsafePointer<UInt8> {
        crew.lock.withLock { UnsafePointer(bands[crew.slot(ofRow: r)]!) }
    }

    /// Writes reduced row `r` (at 1/d; every block row it covers read) into `out`.
    func take(row r: Int, into out: UnsafeMutablePointer<UInt8>) {
        crew.lock.withLock { sums?.take(row: r, into: out) }
    }

    /// Returns once every block of row `r` is in its band or the sums (``TileCrew/read(row:lane:)``).
    func read(row r: Int, lane: TIFFBlockLane) throws(ImageError) { try crew.read(row: r, lane: lane) }

    /// Ends the decode: returns once no helper is decoding a block.
    func stop() { crew.stop() }

    // MARK: TileDecoding

    func makeLane() -> TIFFBlockLane? {
        try? TIFFBlockLane(
            page: page, block: block, bytes: bytes, path: path, maxAllocation: maxAllocation, format: format, ink: ink,
            reduction: reduction)
    }

    /// Allocates (zeroed) the band of `slot` at full size, the first time.
    func allocate(slot: Int) {
        guard sums == nil, bands[slot] == nil else { return }
        let count = max(1, bandStride * block.height)
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        band.initialize(repeating: 0, count: count)
        bands[slot] = band
    }

    /// Block `t` (counted in row order) decoded with `lane` into its columns of its row's band, or summed and poured
    /// into the sums.
    func decode(_ t: Int, lane: TIFFBlockLane) -> Result<Void, ImageError> {
        let r = t / columns
        let x = t % columns * block.width, y = r * block.height
        let rows = min(block.height, page.size.height - y), count = min(block.width, page.size.width - x)
        let decoded: Bool
        if let sums {
            let part = lane.sum(x: x, y: y, rows: rows, columns: count)
            if let part { crew.lock.withLock { lane.pour(part, into: sums) } }
            decoded = part != nil
        } else {
            let band = crew.lock.withLock { bands[crew.slot(ofRow: r)]! }
            decoded = lane.copyTile(
                x: x, y: y, rows: rows, columns: count, into: band + x * page.bytesPerPixel, stride: bandStride)
        }
        guard decoded else {
            let what = page.tile == nil ? "strips" : "tile at \(x), \(y)"
            return .failure(
                ImageError(
                    .corruptData, "\(path): the TIFF's \(what) (rows \(y)–\(y + rows - 1)) cannot be decoded",
                    cause: lane.failure))
        }
        return Result { () throws(ImageError) in try monitor?.checkpoint(row: y / reduction) }
    }

    /// Keeps the first warning a lane's libtiff gave, and releases the file's pages below the first block still being
    /// decoded (every MiB).
    func finished(_ t: Int, _ result: Result<Void, ImageError>, lane: TIFFBlockLane) {
        if helperWarning == nil, lane.handle.warnings.count > 0 { helperWarning = lane.handle.warnings.first }
        let first = crew.finishedTiles
        guard bytes.isPageAlignedMapping && first < crew.count else { return }
        let offset = lane.handle.blockOffset(x: first % columns * block.width, y: first / columns * block.height)
        pages.release(below: Int(min(offset, UInt64(bytes.count))))
    }
}
