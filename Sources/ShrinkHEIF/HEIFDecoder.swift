import ShrinkCore

/// A HEIC file's header and the way its primary image decodes, read without decoding (a box walk; see
/// ``HEIFContainer``): HEVC images and grids of HEVC tiles, decoded by libde265 a row of tiles at a time.
///
/// Orientation comes from `irot`/`imir` only; an EXIF orientation in the file is ignored (iPhone photos carry
/// both, and applying both rotates twice). Not yet: the embedded thumbnail, the alpha plane, the clean
/// aperture (Pillow ignores it too), AVIF (its own codec), depths above 8 bits (shifted down).
public struct HEIFDecoder: ImageDecoding {
    public let bytes: ImageBytes
    public let path: String
    public let info: ImageInfo
    let container: HEIFContainer
    let image: HEIFImage

    /// Reads the container and describes the primary image. Fails with `.unsupportedFeature` for images the
    /// tile path does not decode, `.corruptData`/`.truncated` for boxes that do not parse, `.limitExceeded`
    /// for an image or tile above `limits` (checked before anything is allocated).
    public init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        container = try HEIFContainer(bytes: bytes.bytes, path: path)
        image = try HEIFImage(container, bytes: bytes.bytes, path: path, limits: limits)
        let config = image.configuration
        let exif = Self.exifRange(container, bytes: bytes.bytes)
        var features = ["HEVC"]
        if image.isGrid { features.append("grid \(image.columns)x\(image.rows) of \(image.tileSize)") }
        if !container.items(referencing: container.primaryID, with: "thmb").isEmpty { features.append("thumbnail") }
        if image.alpha != nil { features.append("alpha") }
        if let nclx = image.nclx { features.append("nclx \(nclx.primaries)/\(nclx.transfer)/\(nclx.matrix)/\(nclx.fullRange ? "full" : "limited")") }
        info = ImageInfo(format: .heif, size: image.size, orientation: image.orientation,
                         colorModel: config.chromaFormat == 0 ? .gray : .yCbCr, bitsPerComponent: config.bitDepthLuma,
                         hasAlpha: image.alpha != nil,
                         chromaSubsampling: [nil, .s420, .s422, .s444][config.chromaFormat],
                         iccProfileBytes: image.icc?.count ?? 0, exifBytes: exif?.count ?? 0, features: features)
    }

    /// The EXIF block of the primary item (a `cdsc` reference from an `Exif` item): its TIFF header after the
    /// 4-byte offset that starts the item.
    static func exifRange(_ c: HEIFContainer, bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        for id in c.items(referencing: c.primaryID, with: "cdsc") where c.items[id]?.type == "Exif" {
            guard let extent = c.items[id]?.extents.first, extent.count > 4 else { continue }
            let offset = (0..<4).reduce(0) { $0 << 8 | Int(bytes[extent.lowerBound + $1]) }
            let start = extent.lowerBound + 4 + offset
            if offset >= 0, start < extent.upperBound { return start..<extent.upperBound }
        }
        return nil
    }

    public func metadata() throws(ImageError) -> ImageMetadata {
        ImageMetadata(iccProfile: image.icc.map { Array(bytes.bytes[$0]) },
                      exif: Self.exifRange(container, bytes: bytes.bytes).map { Array(bytes.bytes[$0]) })
    }

    /// Tiles decode at full size.
    public var scaleDenominators: [Int] { [1] }

    public func scaledSize(denominator: Int) -> Size { info.size }

    public var outputFormat: PixelFormat { info.hasAlpha ? .rgba8 : info.colorModel == .gray ? .gray8 : .rgb8 }

    /// What decoding `image` holds: a band of planes (the image's width × a tile's height) and what libde265
    /// holds for one tile — its picture, the deblocked and SAO copies, per-block metadata — plus our copy of
    /// it: 11 B per tile pixel (10 measured as the allocator's high-water mark (6.3 MB for an iPhone photo's
    /// 512×512 tiles with a 3.1 MB band, 6.3 MB in all).
    static func workingBytes(_ image: HEIFImage) -> Int {
        let chroma = [0, 2, 4, 8][image.configuration.chromaFormat]          // chroma samples per 4 luma samples
        return image.size.width * image.tileSize.height * (4 + chroma) / 4 + 11 * image.tileSize.pixelCount
    }

    /// The route: a row of tiles at a time (`tileRows`; a single HEVC image is one tile: `wholeImage`),
    /// delivered as planes when YUV is wanted and the matrix is BT.601, else as rows converted with the file's
    /// matrix. Working memory: ``workingBytes(_:)`` for the image and for its alpha image.
    public func route(_ request: RouteRequest) -> DecodeRoute {
        let matrix = image.nclx?.matrix ?? 6
        let evenOrigin = image.origin.x % 2 == 0 && image.origin.y % 2 == 0
        let planes = request.wantsPlanes && image.configuration.chromaFormat != 0 && YCbCrMatrix.isBT601(matrix) && image.alpha == nil
            && evenOrigin
        var working = Self.workingBytes(image)
        if let alpha = image.alpha?.image { working += Self.workingBytes(alpha) }
        let (bytes, container, image, name) = (bytes, container, image, path)
        return DecodeRoute(path: image.isGrid ? .tileRows : .wholeImage, output: planes ? .planes : .rows(outputFormat),
                           decodedSize: image.size, workingBytes: working, stateBytes: 256 << 10) { _, monitor throws(ImageError) in
            let bands = try HEIFBands(image: image, container: container, bytes: bytes, path: name, monitor: monitor)
            if planes { return .planes(HEIFPlaneDecoder(bands: bands)) }
            let alpha = try image.alpha.map { box throws(ImageError) in
                try HEIFBands(image: box.image, container: container, bytes: bytes, path: name, monitor: monitor)
            }
            return .rows(HEIFRowDecoder(bands: bands, alpha: alpha, matrix: matrix, path: name))
        }
    }
}
