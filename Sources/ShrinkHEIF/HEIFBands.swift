import ShrinkCore

/// A HEIC or AVIF image decoded a row of tiles at a time: each call decodes the next row of tiles (one
/// libde265 or dav1d decoder, tile after tile) into a band of planes as wide as the image, cut to the image's
/// size. Only the tiles of its ``HEIFTileWindow`` are decoded (a crop skips the others). A single image whose
/// picture covers its planes is its own band (dav1d's picture, not copied). Samples are 8-bit, or 16-bit words
/// at the coded depth for an image deeper than 8 bits decoded with `keepDepth`. A decode at 1/`reduction` sums each
/// tile's rows into d×d means as they are copied (``BoxReducer``, d rows at a time: a block never spans two tiles),
/// and everything it hands out — ``window``,
/// ``planeSizes``, the band's rows — is in those reduced pixels. Memory: one band (the window's width × a tile's
/// height, 1.5 samples a pixel for 4:2:0; at 1/d, 1/d² of that and two rows of a tile's sums) and one tile in the
/// decoder.
final class HEIFBands {
    let image: HEIFImage
    /// The tiles decoded and the region delivered, in delivered pixels (coded pixels, or reduced ones at 1/d).
    let window: HEIFTileWindow
    /// The same in coded pixels.
    private let coded: HEIFTileWindow
    /// The decode's reduction (1: none; see ``HEIFDecoder/scaleDenominators``).
    let reduction: Int
    /// 1 (monochrome) or 3.
    let planeCount: Int
    /// Bytes per sample (2 when deeper samples are kept at their depth) and the bits they hold (8 when shifted).
    let sampleBytes: Int
    let bitDepth: Int
    /// Chroma subsampling across and down (2 for 4:2:0, 1 for 4:4:4).
    let subsampling: (x: Int, y: Int)
    /// Each plane's size over the whole coded image (before the clean aperture), in delivered pixels.
    let planeSizes: [PixelSize]
    /// The same in coded pixels.
    private let codedSizes: [PixelSize]
    /// Per plane, at 1/d, the sums a tile is reduced in, d rows at a time, by the size of the tile's part
    /// delivered (a tile cut by the window's far edges has its own).
    private var reducers: [[PixelSize: BoxReducer]]
    /// The current band: per plane, rows `bandStart[p] ..< bandStart[p] + bandRows[p]` (see ``row(_:_:)``).
    private(set) var bandStart: [Int]
    private(set) var bandRows: [Int]
    /// Each plane's band: its first row and the bytes between rows (nil until a band is decoded), and the
    /// coded column its first sample is.
    private var bandBase: [UnsafePointer<UInt8>?]
    private var bandX: [Int]
    private var bandStride: [Int]
    /// The band's own memory, allocated at the first grid row (a tile row's height, the image's width).
    private var storage: [UnsafeMutablePointer<UInt8>?]
    /// The picture that is the band, for a single image decoded without a copy.
    private var held: HEIFPicture?
    /// Whether the coded samples are full range, and their YCbCr matrix (H.273), as `nclx` says, else the first
    /// tile's bitstream (HEVC VUI), else full-range BT.601.
    private(set) var fullRange: Bool
    private(set) var matrix: Int
    /// The colour primaries code (H.273) beside the matrix: matrices 12 and 13 derive their luma from it.
    let primaries: Int
    private var nextTileRow: Int
    private let decoder: HEIFTileDecoder
    private let bytes: ImageBytes
    private let container: HEIFContainer
    private let path: String
    private let monitor: DecodeMonitor?

    /// The bands of `image`'s `window` (all of it by default); `keepDepth` keeps samples deeper than 8 bits as
    /// 16-bit words; `reduction` (one of ``HEIFDecoder/scaleDenominators``, 8-bit samples) decodes at 1/d.
    init(
        image: HEIFImage, window: HEIFTileWindow? = nil, keepDepth: Bool = false, reduction d: Int = 1,
        container: HEIFContainer, bytes: ImageBytes, path: String, monitor: DecodeMonitor?
    ) throws(ImageError) {
        self.image = image
        sampleBytes = keepDepth && image.coding.bitDepth > 8 ? 2 : 1
        bitDepth = sampleBytes == 2 ? image.coding.bitDepth : 8
        let window = window ?? HEIFTileWindow(image)
        coded = window
        reduction = sampleBytes == 1 ? max(1, d) : 1
        self.window = window.reduced(by: reduction)
        nextTileRow = window.rows.lowerBound
        self.container = container
        self.bytes = bytes
        self.path = path
        self.monitor = monitor
        planeCount = image.coding.chromaFormat == 0 ? 1 : 3
        subsampling = image.coding.subsampling
        let chroma = PixelSize(
            width: (image.codedSize.width + subsampling.x - 1) / subsampling.x,
            height: (image.codedSize.height + subsampling.y - 1) / subsampling.y)
        codedSizes = planeCount == 1 ? [image.codedSize] : [image.codedSize, chroma, chroma]
        planeSizes = codedSizes.map { [reduction] in BoxReducer.reducedSize($0, d: reduction) }
        reducers = codedSizes.map { _ in [:] }
        bandBase = planeSizes.map { _ in nil }
        bandX = planeSizes.map { _ in 0 }
        bandStride = planeSizes.map(\.width)
        storage = planeSizes.map { _ in nil }
        bandStart = planeSizes.map { _ in 0 }
        bandRows = planeSizes.map { _ in 0 }
        fullRange = image.nclx?.fullRange ?? true
        matrix = image.nclx?.matrix ?? 6
        primaries = image.nclx?.primaries ?? 2
        decoder = try HEIFTileDecoder(image, path: path)
    }

    deinit {
        held = nil // a dav1d picture goes before its decoder
        for plane in storage { plane?.deallocate() }
    }

    /// Row `y` of plane `p` (delivered pixels), which the current band holds (`bandStart[p] ≤ y < bandStart[p] +
    /// bandRows[p]`), from the window's first column (`window.x`, divided by the subsampling for chroma);
    /// ``sampleBytes`` a sample.
    func row(_ p: Int, _ y: Int) -> UnsafePointer<UInt8> {
        let x = p == 0 ? window.x : window.x / subsampling.x
        return bandBase[p]! + (y - bandStart[p]) * bandStride[p] + (x - bandX[p]) * sampleBytes
    }

    /// A plane's samples in one tile column.
    private func tileWidth(_ plane: Int) -> Int {
        plane == 0 ? image.tileSize.width : (image.tileSize.width + subsampling.x - 1) / subsampling.x
    }

    /// Plane `p`'s band width in coded pixels: the window's tile columns, cut where the window ends.
    private func bandWidth(_ p: Int) -> Int {
        max(1, min(end(p).x, coded.columns.upperBound * tileWidth(p)) - coded.columns.lowerBound * tileWidth(p))
    }

    /// Where the window ends on plane `p`, in coded pixels, across and down: nothing past it is delivered, and at
    /// 1/d no mean takes in samples past it (the last block of a row or column covers what is left).
    private func end(_ p: Int) -> (x: Int, y: Int) {
        let (sx, sy) = p == 0 ? (1, 1) : subsampling
        return ((coded.x + coded.width + sx - 1) / sx, (coded.y + coded.height + sy - 1) / sy)
    }

    /// Plane `p`'s band memory (delivered pixels), allocated (zeroed) the first time.
    private func ownBand(_ p: Int) -> UnsafeMutablePointer<UInt8> {
        if let plane = storage[p] { return plane }
        let d = reduction
        let count = max(1, (bandWidth(p) + d - 1) / d * ((tileRows(p) + d - 1) / d) * sampleBytes)
        let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        plane.initialize(repeating: 0, count: count)
        storage[p] = plane
        return plane
    }

    /// Rows of a plane in one tile row (an odd-sized tile's chroma covers its last row or column too).
    private func tileRows(_ plane: Int) -> Int {
        plane == 0 ? image.tileSize.height : (image.tileSize.height + subsampling.y - 1) / subsampling.y
    }

    /// Decodes the next row of tiles into the band; false when every row has been decoded.
    func decodeNextRow() throws(ImageError) -> Bool {
        guard nextTileRow < coded.rows.upperBound else { return false }
        let r = nextTileRow, d = reduction
        nextTileRow += 1
        // The band's first row and rows in coded pixels (the tiles' rows), then in delivered ones.
        let codedStart = (0..<planeCount).map { r * tileRows($0) }
        let codedRows = (0..<planeCount).map { max(0, min(tileRows($0), end($0).y - codedStart[$0])) }
        for p in 0..<planeCount {
            bandStart[p] = codedStart[p] / d
            bandRows[p] = (codedRows[p] + d - 1) / d
        }
        held = nil
        for column in coded.columns {
            let index = r * image.columns + column
            let picture = try decodeTile(index)
            if r == coded.rows.lowerBound && column == coded.columns.lowerBound && image.nclx == nil {
                fullRange = picture.fullRange
                if picture.matrix != 2 { matrix = picture.matrix }
            }
            guard picture.sampleBytes == sampleBytes else {
                throw ImageError(
                    .corruptData,
                    "\(path): \(image.coding.codecName) tile \(image.tiles[index]) is \(picture.bitDepth)-bit, not the \(image.coding.bitDepth) bits its configuration says"
                )
            }
            guard picture.planes.count >= planeCount else {
                throw ImageError(
                    .corruptData,
                    "\(path): \(image.coding.codecName) tile \(image.tiles[index]) has \(picture.planes.count) planes, not \(planeCount)"
                )
            }
            let covers = (0..<planeCount).allSatisfy {
                picture.sizes[$0].width >= codedSizes[$0].width && picture.sizes[$0].height >= codedSizes[$0].height
            }
            if image.tiles.count == 1 && covers && d == 1 {
                held = picture // the band is the picture itself
                for p in 0..<planeCount {
                    (bandBase[p], bandStride[p], bandX[p]) = (picture.planes[p], picture.strides[p], 0)
                }
            } else {
                for p in 0..<planeCount {
                    let band = ownBand(p), width = bandWidth(p), first = coded.columns.lowerBound * tileWidth(p)
                    (bandBase[p], bandStride[p], bandX[p]) = (
                        UnsafePointer(band), (width + d - 1) / d * sampleBytes, first / d
                    )
                    let x0 = column * tileWidth(p) - first
                    let count = min(picture.sizes[p].width, tileWidth(p), width - x0)
                    guard count > 0 else { continue }
                    let rows = min(picture.sizes[p].height, codedRows[p])
                    if d > 1 {
                        // d rows summed, then their means written to the band's row, from the tile's first column.
                        let reducer = reducer(p, PixelSize(width: count, height: rows))
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
                        (band + (y * width + x0) * sampleBytes).update(
                            from: picture.row(p, y), count: count * sampleBytes)
                    }
                }
            }
            try monitor?.checkpoint(row: bandStart[0])
        }
        return true
    }

    /// Plane `p`'s reducer at 1/d for a tile's part of `size` (coded pixels), made the first time: a whole tile's,
    /// and at most three others where the window's far edges cut tiles.
    private func reducer(_ p: Int, _ size: PixelSize) -> BoxReducer {
        if let reducer = reducers[p][size] { return reducer }
        let reducer = BoxReducer(source: size, d: reduction, channels: 1, bandRows: reduction)
        reducers[p][size] = reducer
        return reducer
    }

    /// Tile `index` (in row order) through its decoder.
    private func decodeTile(_ index: Int) throws(ImageError) -> HEIFPicture {
        let raw = bytes.bytes
        let id = image.tiles[index], coding = image.codings[index]
        let data = try container.data(of: id, bytes: raw, maxBytes: raw.count, path: path)
        let result: Result<HEIFPicture, ImageError> = data.withUnsafeBytes { d in
            Result { () throws(ImageError) in
                try decoder.decode(
                    d, coding: coding, file: raw,
                    depth: sampleBytes == 2 ? .kept : .narrowed(fullRange: image.nclx?.fullRange), path: path)
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
        return picture
    }
}
