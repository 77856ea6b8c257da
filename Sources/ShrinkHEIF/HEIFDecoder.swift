import ShrinkCore

/// A HEIC or AVIF file's header and the way its primary image decodes, read without decoding (a box walk; see
/// ``HEIFContainer``): single images and grids of tiles, HEVC decoded by libde265 and AV1 by dav1d, a row of
/// tiles at a time. A `thmb` item that shows the same picture is offered as the embedded thumbnail.
///
/// Orientation comes from `irot`/`imir` only; an EXIF orientation in the file is ignored (iPhone photos carry
/// both, and applying both rotates twice). Images deeper than 8 bits are shifted down to 8, or converted at
/// full precision to rgba16 rows when the result is rgba16.
package struct HEIFDecoder: ImageDecoding {
    package let bytes: ImageBytes
    package let path: String
    package let info: ImageInfo
    let container: HEIFContainer
    let image: HEIFImage
    /// The largest `thmb` item of the primary that can stand in for it (``HEIFImage/canStandIn(for:)``).
    let thumbnail: HEIFImage?

    /// Reads the container and describes the primary image. Fails with `.unsupportedFeature` for images the
    /// tile path does not decode, `.corruptData`/`.truncated` for boxes that do not parse, `.limitExceeded`
    /// for an image or tile above `limits` (checked before anything is allocated).
    /// `format` is what `info` reports (`.heif` or `.avif`: the codec that sniffed the file).
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits(), format: ImageFormat = .heif)
        throws(ImageError)
    {
        try self.init(
            bytes: bytes, path: path, container: try HEIFContainer(bytes: bytes.bytes, path: path), limits: limits,
            format: format)
    }

    /// The primary image of `container`, read from `bytes` (see ``init(bytes:path:limits:format:)``).
    init(bytes: ImageBytes, path: String, container: HEIFContainer, limits: ImageLimits, format: ImageFormat)
        throws(ImageError)
    {
        let image = try HEIFImage(container, bytes: bytes.bytes, path: path, limits: limits)
        let thumbnails = container.items(referencing: container.primaryID, with: "thmb").compactMap { id in
            try? HEIFImage(container, item: id, bytes: bytes.bytes, path: path, limits: limits, withAlpha: true)
        }
        let thumbnail = thumbnails.filter { $0.canStandIn(for: image) && $0.size.pixelCount < image.size.pixelCount }
            .max { $0.size.pixelCount < $1.size.pixelCount }
        self.init(bytes: bytes, path: path, container: container, image: image, thumbnail: thumbnail, format: format)
    }

    /// `image` of `container` as a decoder (the primary, or a thumbnail with no thumbnail of its own).
    init(
        bytes: ImageBytes, path: String, container: HEIFContainer, image: HEIFImage, thumbnail: HEIFImage?,
        format: ImageFormat
    ) {
        self.bytes = bytes
        self.path = path
        self.container = container
        self.image = image
        self.thumbnail = thumbnail
        let coding = image.coding
        let exif = Self.exifRange(container, bytes: bytes.bytes)
        var features = ["\(coding.codecName) (\(coding.decoderName))"]
        if image.isGrid { features.append("grid \(image.columns)x\(image.rows) of \(image.tileSize)") }
        let thumbnailIDs = container.items(referencing: container.primaryID, with: "thmb")
        if image.item == container.primaryID && !thumbnailIDs.isEmpty {
            let sizes = thumbnailIDs.compactMap { container.size(of: $0).map { "\($0)" } }
            features.append(
                "thumbnail \(sizes.joined(separator: ", "))"
                    + (thumbnail == nil ? " (not used: it does not match)" : ""))
        }
        if image.alpha != nil { features.append("alpha") }
        if let nclx = image.nclx {
            features.append(
                "nclx \(nclx.primaries)/\(nclx.transfer)/\(nclx.matrix)/\(nclx.fullRange ? "full" : "limited")")
        }
        if image.orientation != .up { features.append("orientation from irot/imir (EXIF orientation ignored)") }
        var header = ImageInfo(
            format: format, size: image.size, orientation: image.orientation,
            colorModel: coding.chromaFormat == 0 ? .gray : .yCbCr, bitsPerComponent: coding.bitDepth,
            hasAlpha: image.alpha != nil,
            chromaSubsampling: [nil, .s420, .s422, .s444][coding.chromaFormat],
            iccProfileBytes: image.icc?.count ?? 0, exifBytes: exif?.count ?? 0,
            codedColor: image.icc == nil
                ? image.nclx.map { .codePoints(primaries: $0.primaries, transfer: $0.transfer) } : nil,
            embeddedThumbnail: thumbnail?.size, features: features, orientationSource: "irot/imir")
        if image.transformNotEssential {
            header.warnings.append(
                "rotation, mirror or crop not marked essential, as the format requires: applied all the same")
        }
        info = header
    }

    /// The `thmb` item as a decoder of its own (the same bytes and container), when it can stand in for the
    /// primary: ``ImageSource`` uses it when it is at least the target's size.
    package func embeddedThumbnail() -> (any ImageDecoding)? {
        thumbnail.map {
            HEIFDecoder(bytes: bytes, path: path, container: container, image: $0, thumbnail: nil, format: info.format)
        }
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

    package func metadata() throws(ImageError) -> ImageMetadata {
        ImageMetadata(
            iccProfile: image.icc.map { Array(bytes.bytes[$0]) },
            exif: Self.exifRange(container, bytes: bytes.bytes).map { Array(bytes.bytes[$0]) })
    }

    /// 1, and for an 8-bit grid without alpha the powers of two up to 64 that divide its tiles and the clean
    /// aperture's origin, on each plane: each tile's rows are summed into d×d means as they are copied into the
    /// band (``HEIFBands``), so a row of tiles is held at 1/d², and the resampler reads 1/d² of the pixels. (A single
    /// image is its decoder's picture, whole: reducing it would save no memory.)
    package var scaleDenominators: [Int] {
        guard image.isGrid, image.coding.bitDepth == 8, image.alpha == nil else { return [1] }
        let (sx, sy) = image.coding.subsampling
        return [1]
            + [2, 4, 8, 16, 32, 64].filter { d in
                image.tileSize.width % (d * sx) == 0 && image.tileSize.height % (d * sy) == 0
                    && image.origin.x % (d * sx) == 0 && image.origin.y % (d * sy) == 0
            }
    }

    package func scaledSize(denominator d: Int) -> PixelSize {
        scaleDenominators.contains(d) ? BoxReducer.reducedSize(info.size, d: d) : info.size
    }

    package var outputFormat: PixelFormat { info.hasAlpha ? .rgba8 : info.colorModel == .gray ? .gray8 : .rgb8 }

    /// What decoding `image` holds. HEVC: a band of planes (the image's width × a tile's height) and what libde265
    /// holds for one tile — its picture, the deblocked and SAO copies, per-block metadata — plus our copy of it: 11 B
    /// per tile pixel. AV1: dav1d's picture of a tile (its planes at 1 or 2 bytes a sample) and 0.6 times as much again
    /// of per-frame state, plus the band for a grid, plus an 8-bit copy of a deeper tile; a single AV1 image is its own
    /// band unless it is shifted to 8 bits. Samples kept at a depth above 8 bits (`keepDepth`) take 2 bytes in the band
    /// and in libde265's copy. Both per-tile factors are calibrated against the allocator's high-water mark
    /// (BENCHMARKS.md, "Figures behind the code"). At 1/`d` the band is 1/d² as large (a row more for rounding),
    /// beside the reducers' sums: per plane two rows of a tile's reduced width, 4 bytes each, for up to four sizes of
    /// tile part.
    static func workingBytes(_ image: HEIFImage, keepDepth: Bool = false, reduction d: Int = 1) -> Int {
        let ownBand: Bool // a single AV1 image is dav1d's picture, unless shifted to 8 bits
        switch image.coding {
        case .hevc: ownBand = true
        case .av1: ownBand = image.tiles.count > 1 || (image.coding.bitDepth > 8 && !keepDepth)
        }
        return tileBytes(image, keepDepth: keepDepth)
            + (ownBand ? bandBytes(image, keepDepth: keepDepth, reduction: d) : 0)
    }

    /// What a helper decoding a grid's tiles beside the reader holds: a decoder and its tile
    /// (``tileBytes(_:keepDepth:)``), the decoder library's state, and at 1/d its own reducers' sums. (The second band
    /// helpers fill ahead is the decode's own: ``lookaheadBytes(_:window:keepDepth:reduction:)``.)
    static func helperBytes(_ image: HEIFImage, keepDepth: Bool = false, reduction d: Int = 1) -> Int {
        tileBytes(image, keepDepth: keepDepth) + stateBytes(image) + (d > 1 ? reducerBytes(image, reduction: d) : 0)
    }

    /// The sums a thread reduces tiles in at 1/`d`: per plane two rows of a tile's reduced width, 4 bytes each, for
    /// up to four sizes of tile part.
    private static func reducerBytes(_ image: HEIFImage, reduction d: Int) -> Int { 96 * image.tileSize.width / d }

    /// Samples per 4 pixels in `image`'s chroma format.
    private static func quarters(_ image: HEIFImage) -> Int { 4 + [0, 2, 4, 8][image.coding.chromaFormat] }

    /// The second band a helped decode of `window` holds while its helpers decode the next row of tiles (none for a
    /// single row of tiles: nothing can be decoded ahead).
    static func lookaheadBytes(_ image: HEIFImage, window: HEIFTileWindow, keepDepth: Bool, reduction d: Int) -> Int {
        window.rows.count > 1 ? bandBytes(image, keepDepth: keepDepth, reduction: d) : 0
    }

    /// A band of planes at 1/`d` (with the reducers' sums), as ``workingBytes(_:keepDepth:reduction:)`` counts it.
    private static func bandBytes(_ image: HEIFImage, keepDepth: Bool, reduction d: Int) -> Int {
        let kept = image.coding.bitDepth > 8 && keepDepth ? 2 : 1
        return d == 1
            ? image.size.width * image.tileSize.height * quarters(image) / 4 * kept
            : BoxReducer.reducedSize(image.size, d: d).width * (image.tileSize.height / d + 2) * quarters(image) / 4
                + reducerBytes(image, reduction: d)
    }

    /// What the decoder holds for one tile and our copy of it, as ``workingBytes(_:keepDepth:reduction:)`` counts it.
    private static func tileBytes(_ image: HEIFImage, keepDepth: Bool) -> Int {
        let deep = image.coding.bitDepth > 8, kept = deep && keepDepth ? 2 : 1
        let tile = image.tileSize.pixelCount * quarters(image) / 4
        switch image.coding {
        case .hevc:
            return 11 * image.tileSize.pixelCount + (kept == 2 ? tile : 0)
        case .av1:
            return tile * (deep ? 2 : 1) * 8 / 5 + (deep && kept == 1 ? tile : 0)
        }
    }

    /// The decoder library's own state besides pictures, a fixed allowance: 256 KiB for libde265's context, 1 MiB for
    /// dav1d's (BENCHMARKS.md, "Figures behind the code").
    static func stateBytes(_ image: HEIFImage) -> Int {
        switch image.coding {
        case .hevc: 256 << 10
        case .av1: 1 << 20
        }
    }

    /// The route: a row of tiles at a time (`tileRows`; a single image is one tile: `wholeImage`), only the
    /// tiles a window (a crop) touches — then the route delivers just their part of the image (`sourceRect`)
    /// — delivered as planes when YUV is wanted and the `nclx` matrix is BT.601 (or absent), else as rows
    /// converted with the file's matrix (`nclx`, else the bitstream's): rgba16 rows at the coded precision
    /// for an image deeper than 8 bits when 16-bit rows are wanted; at the request's scale when it is one of
    /// ``scaleDenominators``. Working memory: ``workingBytes(_:keepDepth:reduction:)`` for the image and for its
    /// alpha image, and when the request may be helped the second band each holds
    /// (``lookaheadBytes(_:window:keepDepth:reduction:)``); each helper holds ``helperBytes(_:keepDepth:reduction:)``.
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let matrix = image.nclx?.matrix ?? 6
        let d = scaleDenominators.contains(request.scaleDenominator) ? request.scaleDenominator : 1
        // The request's window is in the pixels of the scaled image; tiles are found in the image's own.
        let s = Double(request.scaleDenominator)
        let wanted = request.window.map {
            FractionalRect(x: $0.x * s, y: $0.y * s, width: $0.width * s, height: $0.height * s)
        }
        let window = HEIFTileWindow(image, window: wanted)
        let shown = window.reduced(by: d)
        let evenOrigin = shown.x % 2 == 0 && shown.y % 2 == 0
        let planes =
            request.wantsPlanes && image.coding.chromaFormat != 0 && YCbCrMatrix.isBT601(matrix) && image.alpha == nil
            && evenOrigin
        let deep = request.wantsSixteenBit && image.coding.bitDepth > 8 && !planes
        var working = Self.workingBytes(image, keepDepth: deep, reduction: d)
        if let alpha = image.alpha?.image { working += Self.workingBytes(alpha, keepDepth: deep) }
        let alphaWindow = image.alpha.map { HEIFTileWindow($0.image, window: wanted) }
        if request.helped {
            working += Self.lookaheadBytes(image, window: window, keepDepth: deep, reduction: d)
            if let alpha = image.alpha?.image, let alphaWindow {
                working += Self.lookaheadBytes(alpha, window: alphaWindow, keepDepth: deep, reduction: 1)
            }
        }
        let helperBytes = Self.helperBytes(image, keepDepth: deep, reduction: d)
        let alphaHelperBytes = image.alpha.map { Self.helperBytes($0.image, keepDepth: deep) } ?? 0
        let (bytes, container, image, name) = (bytes, container, image, path)
        let part =
            window.coversAll(of: image)
            ? nil
            : FractionalRect( // a decoded pixel covers d×d (a last, partial block too: the scale is exactly 1/d)
                x: Double(window.x - image.origin.x), y: Double(window.y - image.origin.y),
                width: Double(shown.width * d), height: Double(shown.height * d))
        return DecodeRoute(
            path: image.isGrid ? .tileRows : .wholeImage,
            output: planes ? .planes : .rows(deep ? .rgba16 : outputFormat),
            decodedSize: PixelSize(width: shown.width, height: shown.height), workingBytes: working,
            stateBytes: Self.stateBytes(image), geometry: part == nil ? .blocks : .uniform, sourceRect: part,
            decoder: image.coding.decoderName,
            helperBytes: max(
                window.tileCount > 1 ? helperBytes : 0, (alphaWindow?.tileCount ?? 0) > 1 ? alphaHelperBytes : 0)
        ) { options, monitor throws(ImageError) in
            let bands = try HEIFBands(
                image: image, window: window, keepDepth: deep, reduction: d, helpers: options.helpers,
                helperBytes: helperBytes, container: container, bytes: bytes, path: name, monitor: monitor)
            if planes { return .planes(HEIFPlaneDecoder(bands: bands)) }
            let alpha = try image.alpha.map { box throws(ImageError) in
                try HEIFBands(
                    image: box.image, window: alphaWindow, keepDepth: deep,
                    helpers: options.helpers, helperBytes: alphaHelperBytes,
                    container: container, bytes: bytes, path: name, monitor: monitor)
            }
            return .rows(HEIFRowDecoder(bands: bands, alpha: alpha, path: name))
        }
    }
}
