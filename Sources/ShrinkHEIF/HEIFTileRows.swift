import ShrinkCore

/// The tiles of one HEIC or AVIF decode and the bands they are decoded into, shared by the threads that decode
/// them (a ``TileCrew``: the reader, ``HEIFBands`` on the thread that pulls rows, and helpers lent while cores would
/// otherwise idle), each with its own ``HEIFTileLane``. A tile is copied — or summed into d×d means at 1/d — into its
/// own columns of its row's band, so no two threads write the same bytes. With helpers there can be two bands: they
/// decode the next row's tiles while the reader reads this row's, and never further ahead; the second band is made
/// the first time a tile is taken ahead, and counted in the decode's own working memory when it may be helped
/// (``HEIFDecoder/lookaheadBytes(_:window:keepDepth:reduction:)``).
///
/// Memory: a band per slot in use (the window's width × a tile's height, 1.5 samples a pixel for 4:2:0; 1/d² of
/// that at 1/d), and per thread a lane and the tile it decodes.
final class HEIFTileRows: TileDecoding, @unchecked Sendable {
    private let image: HEIFImage
    /// The tiles decoded and the region delivered, in coded pixels.
    private let coded: HEIFTileWindow
    /// The decode's reduction (1: none).
    private let reduction: Int
    /// 1 (monochrome) or 3.
    let planeCount: Int
    /// Bytes per sample: 2 when deeper samples are kept.
    private let sampleBytes: Int
    /// Chroma subsampling across and down.
    let subsampling: (x: Int, y: Int)
    /// Each plane's size over the whole coded image.
    let codedSizes: [PixelSize]
    private let container: HEIFContainer
    private let bytes: ImageBytes
    private let path: String
    private let monitor: DecodeMonitor?
    /// The threads decoding the window's tiles, counted from its first row (made once, at the end of `init`).
    private var crew: TileCrew<HEIFTileRows>!

    // Guarded by the crew's lock.
    /// Per slot, per plane, the band's memory (nil until a tile of a row in that slot is taken).
    private var storage: [[UnsafeMutablePointer<UInt8>?]]
    /// The first tile's bitstream colour, once decoded.
    private var firstColour: (fullRange: Bool, matrix: Int)?

    /// The tiles of `image` in `window` (coded pixels), decoded at 1/`reduction` with `sampleBytes` a sample;
    /// `helpers`, when given, are offered `helperBytes` a helper at each row.
    init(
        image: HEIFImage, window: HEIFTileWindow, reduction: Int, sampleBytes: Int, helpers: (any DecodeHelping)?,
        helperBytes: Int, container: HEIFContainer, bytes: ImageBytes, path: String, monitor: DecodeMonitor?
    ) {
        self.image = image
        coded = window
        self.reduction = reduction
        self.sampleBytes = sampleBytes
        planeCount = image.coding.chromaFormat == 0 ? 1 : 3
        subsampling = image.coding.subsampling
        let chroma = PixelSize(
            width: (image.codedSize.width + subsampling.x - 1) / subsampling.x,
            height: (image.codedSize.height + subsampling.y - 1) / subsampling.y)
        codedSizes = planeCount == 1 ? [image.codedSize] : [image.codedSize, chroma, chroma]
        storage = Array(
            repeating: Array(repeating: nil, count: planeCount), count: helpers != nil && window.tileCount > 1 ? 2 : 1)
        self.container = container
        self.bytes = bytes
        self.path = path
        self.monitor = monitor
        crew = TileCrew(
            owner: self, columns: window.columns.count, rows: window.rows.count, helpers: helpers,
            helperBytes: helperBytes)
    }

    deinit {
        crew.stop()
        for slot in storage { for plane in slot { plane?.deallocate() } }
    }

    /// The first tile's bitstream colour (full range, matrix), once its row has been read.
    var colour: (fullRange: Bool, matrix: Int)? { crew.lock.withLock { firstColour } }

    // MARK: Geometry

    /// A plane's samples in one tile column.
    private func tileWidth(_ p: Int) -> Int {
        p == 0 ? image.tileSize.width : (image.tileSize.width + subsampling.x - 1) / subsampling.x
    }

    /// Rows of a plane in one tile row (an odd-sized tile's chroma covers its last row or column too).
    private func tileRows(_ p: Int) -> Int {
        p == 0 ? image.tileSize.height : (image.tileSize.height + subsampling.y - 1) / subsampling.y
    }

    /// Where the window ends on plane `p`, in coded pixels, across and down: nothing past it is delivered, and at
    /// 1/d no mean takes in samples past it (the last block of a row or column covers what is left).
    private func end(_ p: Int) -> (x: Int, y: Int) {
        let (sx, sy) = p == 0 ? (1, 1) : subsampling
        return ((coded.x + coded.width + sx - 1) / sx, (coded.y + coded.height + sy - 1) / sy)
    }

    /// Plane `p`'s band width in coded pixels: the window's tile columns, cut where the window ends.
    private func bandWidth(_ p: Int) -> Int {
        max(1, min(end(p).x, coded.columns.upperBound * tileWidth(p)) - coded.columns.lowerBound * tileWidth(p))
    }

    /// Plane `p`'s rows in tile row `r`, in coded pixels: the first and how many (cut where the window ends).
    private func codedRows(_ p: Int, tileRow r: Int) -> (start: Int, count: Int) {
        let start = r * tileRows(p)
        return (start, max(0, min(tileRows(p), end(p).y - start)))
    }

    /// Plane `p`'s rows in tile row `r` as delivered (at 1/d).
    func deliveredRows(_ p: Int, tileRow r: Int) -> (start: Int, count: Int) {
        let (start, count) = codedRows(p, tileRow: r), d = reduction
        return (start / d, (count + d - 1) / d)
    }

    /// Bytes from one row of plane `p`'s band to the next, and the delivered column its first sample is.
    func bandLayout(_ p: Int) -> (stride: Int, x: Int) {
        let d = reduction
        return ((bandWidth(p) + d - 1) / d * sampleBytes, coded.columns.lowerBound * tileWidth(p) / d)
    }

    /// Plane `p`'s band for tile row `r` (read once ``read(row:lane:)`` returned for it).
    func band(_ p: Int, tileRow r: Int) -> UnsafePointer<UInt8> {
        crew.lock.withLock { UnsafePointer(storage[crew.slot(ofRow: r - coded.rows.lowerBound)][p]!) }
    }

    // MARK: Reading

    /// Returns once every tile of row `r` is in its band (``TileCrew/read(row:lane:)``, rows counted over the image's
    /// tile rows). Throws the first failure in a tile of row `r` or a row above it.
    func read(row r: Int, lane: HEIFTileLane) throws(ImageError) {
        try crew.read(row: r - coded.rows.lowerBound, lane: lane)
    }

    /// A single image's one tile: the picture itself when it covers the planes at full size (it is the band), else
    /// nil once it has been copied into the band.
    func readSingle(lane: HEIFTileLane) throws(ImageError) -> HEIFPicture? {
        let picture = try self.picture(0, lane: lane)
        crew.lock.withLock { firstColour = (picture.fullRange, picture.matrix) }
        try monitor?.checkpoint(row: 0)
        let covers = (0..<planeCount).allSatisfy {
            picture.sizes[$0].width >= codedSizes[$0].width && picture.sizes[$0].height >= codedSizes[$0].height
        }
        if covers && reduction == 1 { return picture }
        crew.lock.withLock { allocate(slot: 0) }
        deposit(picture, tileRow: coded.rows.lowerBound, column: coded.columns.lowerBound, lane: lane)
        return nil
    }

    /// Ends the decode: returns once no helper is decoding a tile.
    func stop() { crew.stop() }

    // MARK: TileDecoding

    func makeLane() -> HEIFTileLane? { try? HEIFTileLane(image, planeCount: planeCount, path: path) }

    /// Allocates (zeroed) the bands of `slot` the first time.
    func allocate(slot: Int) {
        guard storage[slot][0] == nil else { return }
        let d = reduction
        for p in 0..<planeCount {
            let count = max(1, (bandWidth(p) + d - 1) / d * ((tileRows(p) + d - 1) / d) * sampleBytes)
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            plane.initialize(repeating: 0, count: count)
            storage[slot][p] = plane
        }
    }

    func finished(_ t: Int, _ result: Result<Void, ImageError>, lane: HEIFTileLane) {}

    // MARK: Decoding

    /// Tile `t` (counted over the window) decoded with `lane` into its columns of its row's band; the first one's
    /// bitstream colour kept.
    func decode(_ t: Int, lane: HEIFTileLane) -> Result<Void, ImageError> {
        let r = coded.rows.lowerBound + t / coded.columns.count
        let column = coded.columns.lowerBound + t % coded.columns.count
        return Result { () throws(ImageError) in
            let picture = try picture(r * image.columns + column, lane: lane)
            if t == 0 { crew.lock.withLock { firstColour = (picture.fullRange, picture.matrix) } }
            deposit(picture, tileRow: r, column: column, lane: lane)
            try monitor?.checkpoint(row: deliveredRows(0, tileRow: r).start)
        }
    }

    /// Copies (at 1/d: reduces) `picture`, the tile in `column` of tile row `r`, into its columns of the row's band.
    private func deposit(_ picture: HEIFPicture, tileRow r: Int, column: Int, lane: HEIFTileLane) {
        let d = reduction
        let slot = crew.lock.withLock { storage[crew.slot(ofRow: r - coded.rows.lowerBound)] }
        for p in 0..<planeCount {
            let band = slot[p]!, width = bandWidth(p), first = coded.columns.lowerBound * tileWidth(p)
            let x0 = column * tileWidth(p) - first
            let count = min(picture.sizes[p].width, tileWidth(p), width - x0)
            guard count > 0 else { continue }
            let rows = min(picture.sizes[p].height, codedRows(p, tileRow: r).count)
            if d > 1 {
                // d rows summed, then their means written to the band's row, from the tile's first column.
                let reducer = lane.reducer(p, PixelSize(width: count, height: rows), d: d)
                let out = band + x0 / d, stride = (width + d - 1) / d
                for y in 0..<rows {
                    reducer.add(picture.row(p, y), row: y, column: 0, count: count)
                    if (y + 1) % d == 0 || y + 1 == rows {
                        reducer.take(row: y / d, into: out + y / d * stride)
                    }
                }
                continue
            }
            for y in 0..<rows {
                (band + (y * width + x0) * sampleBytes).update(from: picture.row(p, y), count: count * sampleBytes)
            }
        }
    }

    /// Tile `index` (in the grid's row order) through `lane`'s decoder, checked against the image's configuration.
    private func picture(_ index: Int, lane: HEIFTileLane) throws(ImageError) -> HEIFPicture {
        let raw = bytes.bytes
        let id = image.tiles[index], coding = image.codings[index]
        let data = try container.data(of: id, bytes: raw, maxBytes: raw.count, path: path)
        let depth: HEIFSampleDepth = sampleBytes == 2 ? .kept : .narrowed(fullRange: image.nclx?.fullRange)
        let result: Result<HEIFPicture, ImageError> = data.withUnsafeBytes { d in
            Result { () throws(ImageError) in
                try lane.decoder.decode(d, coding: coding, file: raw, depth: depth, path: path)
            }
        }
        let picture = try result.get()
        // The tile's coded bytes are read once: their pages of a mapped file go (the tiles are most of the file).
        for extent in container.items[id]?.extents ?? [] { bytes.releaseResidentPages(in: extent) }
        guard
            picture.sizes.first.map({ $0.width >= image.tileSize.width && $0.height >= image.tileSize.height }) == true
                || image.tiles.count == 1
        else {
            throw ImageError(
                .corruptData,
                "\(path): \(image.coding.codecName) tile \(id) decodes to \(picture.sizes.first ?? PixelSize(width: 0, height: 0)), not \(image.tileSize)"
            )
        }
        guard picture.sampleBytes == sampleBytes else {
            throw ImageError(
                .corruptData,
                "\(path): \(image.coding.codecName) tile \(id) is \(picture.bitDepth)-bit, not the \(image.coding.bitDepth) bits its configuration says"
            )
        }
        guard picture.planes.count >= planeCount else {
            throw ImageError(
                .corruptData,
                "\(path): \(image.coding.codecName) tile \(id) has \(picture.planes.count) planes, not \(planeCount)"
            )
        }
        return picture
    }
}
