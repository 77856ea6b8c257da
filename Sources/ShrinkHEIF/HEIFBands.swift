import ShrinkCore

/// A HEIC or AVIF image decoded a row of tiles at a time: each call decodes the next row of tiles (libde265 or dav1d,
/// tile after tile, and on helpers' threads beside when the decode was lent some: ``HEIFTileRows``) into a band of
/// planes as wide as the image, cut to the image's size. Only the tiles of its ``HEIFTileWindow`` are decoded (a crop
/// skips the others). A single image whose picture covers its planes is its own band (dav1d's picture, not copied).
/// Samples are 8-bit, or 16-bit words at the coded depth for an image deeper than 8 bits decoded with `keepDepth`. A
/// decode at 1/`reduction` sums each tile's rows into d×d means as they are copied (``BoxReducer``, d rows at a time:
/// a block never spans two tiles), and everything it hands out — ``window``, ``planeSizes``, the band's rows — is in
/// those reduced pixels. Memory: one band (the window's width × a tile's height, 1.5 samples a pixel for 4:2:0; at
/// 1/d, 1/d² of that and two rows of a tile's sums) and one tile in the decoder; helped, a second band
/// (``HEIFDecoder/lookaheadBytes(_:window:keepDepth:reduction:)``) and per helper a tile and its decoder
/// (``HEIFDecoder/helperBytes(_:keepDepth:reduction:)``, charged to it).
final class HEIFBands {
    let image: HEIFImage
    /// The tiles decoded and the region delivered, in delivered pixels (coded pixels, or reduced ones at 1/d).
    let window: HEIFTileWindow
    /// The decode's reduction (1: none; see ``HEIFDecoder/scaleDenominators``).
    let reduction: Int
    /// 1 (monochrome) or 3.
    var planeCount: Int { tiles.planeCount }
    /// Bytes per sample (2 when deeper samples are kept at their depth) and the bits they hold (8 when shifted).
    let sampleBytes: Int
    let bitDepth: Int
    /// Chroma subsampling across and down (2 for 4:2:0, 1 for 4:4:4).
    var subsampling: (x: Int, y: Int) { tiles.subsampling }
    /// Each plane's size over the whole coded image (before the clean aperture), in delivered pixels.
    let planeSizes: [PixelSize]
    /// The current band: per plane, rows `bandStart[p] ..< bandStart[p] + bandRows[p]` (see ``row(_:_:)``).
    private(set) var bandStart: [Int]
    private(set) var bandRows: [Int]
    /// Each plane's band: its first row and the bytes between rows (nil until a band is decoded), and the
    /// delivered column its first sample is.
    private var bandBase: [UnsafePointer<UInt8>?]
    private var bandX: [Int]
    private var bandStride: [Int]
    /// The picture that is the band, for a single image decoded without a copy.
    private var held: HEIFPicture?
    /// Whether the coded samples are full range, and their YCbCr matrix (H.273), as `nclx` says, else the first
    /// tile's bitstream (HEVC VUI), else full-range BT.601.
    private(set) var fullRange: Bool
    private(set) var matrix: Int
    /// The colour primaries code (H.273) beside the matrix: matrices 12 and 13 derive their luma from it.
    let primaries: Int
    private var nextTileRow: Int
    /// The tiles, their bands, and the helpers decoding them beside this thread.
    private let tiles: HEIFTileRows
    /// This thread's decoder.
    private let lane: HEIFTileLane

    /// The bands of `image`'s `window` (all of it by default); `keepDepth` keeps samples deeper than 8 bits as
    /// 16-bit words; `reduction` (one of ``HEIFDecoder/scaleDenominators``, 8-bit samples) decodes at 1/d;
    /// `helpers` are offered `helperBytes` a helper for a grid's tiles.
    init(
        image: HEIFImage, window: HEIFTileWindow? = nil, keepDepth: Bool = false, reduction d: Int = 1,
        helpers: (any DecodeHelping)? = nil, helperBytes: Int = 0,
        container: HEIFContainer, bytes: ImageBytes, path: String, monitor: DecodeMonitor?
    ) throws(ImageError) {
        self.image = image
        sampleBytes = keepDepth && image.coding.bitDepth > 8 ? 2 : 1
        bitDepth = sampleBytes == 2 ? image.coding.bitDepth : 8
        let window = window ?? HEIFTileWindow(image)
        reduction = sampleBytes == 1 ? max(1, d) : 1
        self.window = window.reduced(by: reduction)
        nextTileRow = window.rows.lowerBound
        tiles = HEIFTileRows(
            image: image, window: window, reduction: reduction, sampleBytes: sampleBytes, helpers: helpers,
            helperBytes: helperBytes, container: container, bytes: bytes, path: path, monitor: monitor)
        planeSizes = tiles.codedSizes.map { [reduction] in BoxReducer.reducedSize($0, d: reduction) }
        bandBase = planeSizes.map { _ in nil }
        bandX = planeSizes.map { _ in 0 }
        bandStride = planeSizes.map(\.width)
        bandStart = planeSizes.map { _ in 0 }
        bandRows = planeSizes.map { _ in 0 }
        fullRange = image.nclx?.fullRange ?? true
        matrix = image.nclx?.matrix ?? 6
        primaries = image.nclx?.primaries ?? 2
        lane = try HEIFTileLane(image, planeCount: tiles.planeCount, path: path)
    }

    deinit {
        held = nil // a dav1d picture goes before its decoder
        tiles.stop()
    }

    /// Row `y` of plane `p` (delivered pixels), which the current band holds (`bandStart[p] ≤ y < bandStart[p] +
    /// bandRows[p]`), from the window's first column (`window.x`, divided by the subsampling for chroma);
    /// ``sampleBytes`` a sample.
    func row(_ p: Int, _ y: Int) -> UnsafePointer<UInt8> {
        let x = p == 0 ? window.x : window.x / subsampling.x
        return bandBase[p]! + (y - bandStart[p]) * bandStride[p] + (x - bandX[p]) * sampleBytes
    }

    /// Decodes the next row of tiles into the band; false when every row has been decoded.
    func decodeNextRow() throws(ImageError) -> Bool {
        guard nextTileRow < window.rows.upperBound else { return false }
        let r = nextTileRow
        nextTileRow += 1
        for p in 0..<planeCount { (bandStart[p], bandRows[p]) = tiles.deliveredRows(p, tileRow: r) }
        held = nil
        if image.tiles.count == 1, let picture = try tiles.readSingle(lane: lane) {
            held = picture // the band is the picture itself
            for p in 0..<planeCount {
                (bandBase[p], bandStride[p], bandX[p]) = (picture.planes[p], picture.strides[p], 0)
            }
        } else {
            if image.tiles.count > 1 { try tiles.read(row: r, lane: lane) }
            for p in 0..<planeCount {
                bandBase[p] = tiles.band(p, tileRow: r)
                (bandStride[p], bandX[p]) = tiles.bandLayout(p)
            }
        }
        if r == window.rows.lowerBound, image.nclx == nil, let colour = tiles.colour {
            fullRange = colour.fullRange
            if colour.matrix != 2 { matrix = colour.matrix }
        }
        return true
    }
}
