import ShrinkCore

/// A HEIC image decoded a row of tiles at a time: each call decodes the next row of tiles (one libde265
/// decoder, tile after tile) into a band of planes as wide as the image, cut to the image's size. Memory: one
/// band (the image's width × a tile's height, 1.5 B/px for 4:2:0) and one tile in the decoder.
final class HEIFBands {
    let image: HEIFImage
    /// 1 (monochrome) or 3.
    let planeCount: Int
    /// Chroma subsampling across and down (2 for 4:2:0, 1 for 4:4:4).
    let subsampling: (x: Int, y: Int)
    /// Each plane's size over the whole coded image (before the clean aperture).
    let planeSizes: [Size]
    /// The current band: per plane, rows `bandStart[p] ..< bandStart[p] + bandRows[p]`, `planeSizes[p].width` apart.
    private(set) var band: [[UInt8]]
    private(set) var bandStart: [Int]
    private(set) var bandRows: [Int]
    /// Whether the coded samples are full range, as the first tile's VUI (or `nclx`) says.
    private(set) var fullRange: Bool
    private var nextTileRow = 0
    private let decoder: HEVCDecoder
    private let bytes: ImageBytes
    private let container: HEIFContainer
    private let path: String
    private let monitor: DecodeMonitor?

    init(image: HEIFImage, container: HEIFContainer, bytes: ImageBytes, path: String, monitor: DecodeMonitor?) throws(ImageError) {
        self.image = image
        self.container = container
        self.bytes = bytes
        self.path = path
        self.monitor = monitor
        planeCount = image.configuration.chromaFormat == 0 ? 1 : 3
        subsampling = switch image.configuration.chromaFormat {
        case 1: (2, 2)
        case 2: (2, 1)
        default: (1, 1)
        }
        let chroma = Size(width: (image.codedSize.width + subsampling.x - 1) / subsampling.x,
                          height: (image.codedSize.height + subsampling.y - 1) / subsampling.y)
        planeSizes = planeCount == 1 ? [image.codedSize] : [image.codedSize, chroma, chroma]
        band = planeSizes.map { _ in [] }
        bandStart = planeSizes.map { _ in 0 }
        bandRows = planeSizes.map { _ in 0 }
        fullRange = image.nclx?.fullRange ?? true
        decoder = try HEVCDecoder(path: path)
    }

    /// Rows of a plane in one tile row.
    private func tileRows(_ plane: Int) -> Int { plane == 0 ? image.tileSize.height : image.tileSize.height / subsampling.y }

    /// Decodes the next row of tiles into the band; false when every row has been decoded.
    func decodeNextRow() throws(ImageError) -> Bool {
        guard nextTileRow < image.rows else { return false }
        let r = nextTileRow
        nextTileRow += 1
        for p in 0..<planeCount {
            let start = r * tileRows(p)
            bandStart[p] = start
            bandRows[p] = max(0, min(tileRows(p), planeSizes[p].height - start))
            let count = planeSizes[p].width * bandRows[p]
            if band[p].count != count { band[p] = [UInt8](repeating: 0, count: count) }
        }
        for column in 0..<image.columns {
            let index = r * image.columns + column
            let picture = try decodeTile(index)
            if r == 0 && column == 0 && image.nclx == nil { fullRange = picture.fullRange }
            guard picture.planes.count >= planeCount else {
                throw ImageError(.corruptData, "\(path): HEVC tile \(image.tiles[index]) has \(picture.planes.count) planes, not \(planeCount)")
            }
            for p in 0..<planeCount {
                let tileWidth = p == 0 ? image.tileSize.width : image.tileSize.width / subsampling.x
                let x0 = column * tileWidth
                let width = min(picture.sizes[p].width, tileWidth, planeSizes[p].width - x0)
                let rows = min(picture.sizes[p].height, bandRows[p])
                guard width > 0 else { continue }
                let stride = planeSizes[p].width
                band[p].withUnsafeMutableBufferPointer { out in
                    picture.planes[p].withUnsafeBufferPointer { tile in
                        for y in 0..<rows {
                            (out.baseAddress! + y * stride + x0).update(from: tile.baseAddress! + y * picture.sizes[p].width, count: width)
                        }
                    }
                }
            }
            try monitor?.checkpoint(row: bandStart[0])
        }
        return true
    }

    /// Tile `index` (in row order) through libde265: its parameter sets, then its NAL units.
    private func decodeTile(_ index: Int) throws(ImageError) -> HEVCPicture {
        let raw = bytes.bytes
        let id = image.tiles[index], config = image.configurations[index]
        let parameterSets = config.parameterSets.map { UnsafeRawBufferPointer(rebasing: raw[$0.range]) }
        let data = try container.data(of: id, bytes: raw, maxBytes: raw.count, path: path)
        let result: Result<HEVCPicture, ImageError> = data.withUnsafeBytes { d in
            Result { () throws(ImageError) in
                let units = try config.nalUnits(in: d, path: path).map { UnsafeRawBufferPointer(rebasing: d[$0]) }
                return try decoder.decode(parameterSets: parameterSets, units: units)
            }
        }
        let picture = try result.get()
        // The tile's coded bytes are read once: their pages of a mapped file go (a 12 MP photo is 2 MB of them).
        for extent in container.items[id]?.extents ?? [] { bytes.releaseResidentPages(in: extent) }
        guard picture.sizes.first.map({ $0.width >= image.tileSize.width && $0.height >= image.tileSize.height }) == true
                || image.tiles.count == 1 else {
            throw ImageError(.corruptData, "\(path): HEVC tile \(id) decodes to \(picture.sizes.first ?? Size(width: 0, height: 0)), not \(image.tileSize)")
        }
        return picture
    }
}
