import ShrinkCore

/// The primary image of a HEIC or AVIF file as the tile path decodes it: one coded item (HEVC or AV1), or a
/// grid of tiles of one size and coding, with its output size, display orientation and colour. Made from the
/// container alone.
struct HEIFImage: Sendable {
    /// The item described (the primary, a thumbnail, an alpha image; a grid's first alpha tile for alpha
    /// made of its tiles' alpha images).
    let item: Int
    /// The coded items to decode, row by row (one for a single image).
    let tiles: [Int]
    let columns: Int
    let rows: Int
    /// Each tile's coded size (`ispe`), and the image's size (the grid's output, or the single item's)…
    let tileSize: PixelSize
    let codedSize: PixelSize
    /// …and what is shown of it: the clean aperture (`clap`), at `origin` of the coded image.
    let size: PixelSize
    let origin: (x: Int, y: Int)
    /// Each tile's coding and decoder configuration, parsed once (every tile shares the first one's codec,
    /// chroma format and depth).
    let codings: [HEIFCoding]
    /// The first tile's.
    var coding: HEIFCoding { codings[0] }
    /// How the image is displayed (`irot`/`imir`).
    let orientation: ImageOrientation
    /// True when a rotation, mirror or crop of the item is not marked essential (applied all the same).
    let transformNotEssential: Bool
    /// `nclx` from the primary item or its first tile, else (AV1) the colour of the first tile's sequence header.
    let nclx: (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)?
    /// The ICC profile's place in the file, when present.
    let icc: Range<Int>?
    /// The alpha plane (an `auxl` item of the alpha type, the image's size), when there is one.
    let alpha: Box?
    /// True when the primary is a grid.
    var isGrid: Bool { tiles.count > 1 || columns > 1 || rows > 1 }

    /// True when this image (a `thmb` item) shows what `primary` shows, so that it can stand in for it: the same
    /// orientation, the shape of what the primary shows (a thumbnail of another picture, or of the primary's
    /// uncropped frame, has its own), no clean aperture of its own, the same colour signalling (nclx and whether
    /// there is an ICC profile), alpha exactly when the primary has alpha.
    func canStandIn(for primary: HEIFImage) -> Bool {
        orientation == primary.orientation && size.hasShape(of: primary.size) && size == codedSize
            && origin == (0, 0)
            && nclx.map { [$0.primaries, $0.transfer, $0.matrix, $0.fullRange ? 1 : 0] }
                == primary.nclx.map { [$0.primaries, $0.transfer, $0.matrix, $0.fullRange ? 1 : 0] }
            && (icc == nil) == (primary.icc == nil) && (alpha == nil) == (primary.alpha == nil)
    }

    /// A reference to an image, so that an image can hold its alpha image.
    final class Box: Sendable {
        let image: HEIFImage
        init(_ image: HEIFImage) { self.image = image }
    }

    /// The URNs that say an auxiliary image is alpha.
    static let alphaTypes: Set<String> = ["urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", "urn:mpeg:hevc:2015:auxid:1"]

    /// Describes the primary item of `container`. Fails with `.unsupportedFeature` for items the tile path
    /// does not decode (`iden`, `iovl`, uncompressed, mixed tile codings), `.corruptData` for a grid whose
    /// tiles do not cover its output, and `.limitExceeded` when the image or a tile is above `limits`.
    init(_ c: HEIFContainer, bytes: UnsafeRawBufferPointer, path: String, limits: ImageLimits) throws(ImageError) {
        try self.init(c, item: c.primaryID, bytes: bytes, path: path, limits: limits, withAlpha: true)
    }

    /// Describes item `id` (the primary, a thumbnail, or an alpha image when `withAlpha` is false).
    init(
        _ c: HEIFContainer, item id: Int, bytes: UnsafeRawBufferPointer, path: String, limits: ImageLimits,
        withAlpha: Bool
    ) throws(ImageError) {
        item = id
        guard let primary = c.items[id] else {
            throw ImageError(.corruptData, "\(path): HEIF item \(id) is referenced but not declared")
        }
        // Rotation, mirror or crop not marked essential (the format requires them to be): an AVIF is refused, as
        // libavif refuses it; a HEVC image has them applied, with a warning (their writer plainly meant them).
        transformNotEssential = c.hasNonEssentialTransform(of: id)
        if transformNotEssential && primary.type == "av01" {
            throw ImageError(.corruptData, "\(path): HEIF rotation, mirror or crop not marked essential (invalid file)")
        }
        func coding(of id: Int) throws(ImageError) -> HEIFCoding {
            switch c.items[id]?.type {
            case "hvc1":
                for case .hevcConfiguration(let range) in c.properties(of: id) {
                    return .hevc(try HEVCConfiguration(bytes, range: range, path: path))
                }
                throw ImageError(.corruptData, "\(path): HEVC item \(id) without its configuration (hvcC)")
            case "av01":
                for case .av1Configuration(let range) in c.properties(of: id) {
                    return .av1(try AV1Configuration(bytes, range: range, path: path))
                }
                throw ImageError(.corruptData, "\(path): AV1 item \(id) without its configuration (av1C)")
            case let type:
                throw ImageError(
                    .unsupportedFeature, "\(path): HEIF item type '\(type ?? "?")' is not decoded (HEVC and AV1 only)")
            }
        }
        switch primary.type {
        case "hvc1", "av01":
            guard let size = c.size(of: id) else {
                throw ImageError(.corruptData, "\(path): HEIF image without a size (ispe)")
            }
            try limits.check(size, path: path)
            tiles = [id]
            (columns, rows, tileSize, codedSize) = (1, 1, size, size)
            codings = [try coding(of: id)]
        case "grid":
            let grid = try c.grid(id, bytes: bytes, path: path)
            let ids = c.references("dimg", from: id)
            guard ids.count == grid.rows * grid.columns, let first = ids.first, let tile = c.size(of: first) else {
                throw ImageError(
                    .corruptData, "\(path): HEIF grid of \(grid.rows)x\(grid.columns) has \(ids.count) tiles")
            }
            let size = PixelSize(width: grid.outputWidth, height: grid.outputHeight)
            try limits.check(size, path: path)
            try limits.check(tile, path: path, what: "tile")
            guard tile.width * grid.columns >= size.width, tile.height * grid.rows >= size.height,
                tile.width * (grid.columns - 1) < size.width, tile.height * (grid.rows - 1) < size.height
            else {
                throw ImageError(.corruptData, "\(path): HEIF grid tiles of \(tile) do not make up \(size)")
            }
            let config = try coding(of: first)
            var configs = [config]
            for id in ids.dropFirst() {
                guard c.size(of: id) == tile else {
                    throw ImageError(.unsupportedFeature, "\(path): HEIF grid tiles of different sizes")
                }
                let other = try coding(of: id)
                guard other.matches(config) else {
                    throw ImageError(.unsupportedFeature, "\(path): HEIF grid tiles coded differently")
                }
                configs.append(other)
            }
            tiles = ids
            (columns, rows, tileSize, codedSize) = (grid.columns, grid.rows, tile, size)
            codings = configs
        default:
            throw ImageError(
                .unsupportedFeature, "\(path): HEIF primary item type '\(primary.type)' is not decoded yet")
        }
        if let kept = c.cleanAperture(of: id, size: codedSize) {
            size = PixelSize(width: Int(kept.width), height: Int(kept.height))
            origin = (Int(kept.x), Int(kept.y))
        } else {
            size = codedSize
            origin = (0, 0)
        }
        orientation = c.orientation(of: id)
        var nclx: (Int, Int, Int, Bool)?, icc: Range<Int>?
        for item in [id, tiles[0]] {
            for case .color(let color) in c.properties(of: item) {
                switch color {
                case .nclx(let p, let t, let m, let full): if nclx == nil { nclx = (p, t, m, full) }
                case .icc(let range): if icc == nil { icc = range }
                }
            }
        }
        if nclx == nil, case .av1 = codings[0],
            let color = AV1Decoder.color(c.prefix(of: tiles[0], bytes: bytes, count: 4096))
        {
            nclx = color
        }
        self.nclx = nclx.map { (primaries: $0.0, transfer: $0.1, matrix: $0.2, fullRange: $0.3) }
        self.icc = icc
        var alpha: Box?
        if withAlpha {
            alpha = Self.alphaImage(of: id, c, bytes: bytes, path: path, limits: limits).map(Box.init)
            // A grid whose tiles each have an alpha image (libavif writes these): those images, as a grid alike.
            if alpha == nil && tiles.count > 1 {
                let alphaTiles = tiles.compactMap {
                    Self.alphaImage(of: $0, c, bytes: bytes, path: path, limits: limits)
                }
                let tile = tileSize
                if alphaTiles.count == tiles.count,
                    alphaTiles.allSatisfy({ $0.codedSize == tile && $0.coding.matches(alphaTiles[0].coding) })
                {
                    alpha = Box(
                        HEIFImage(
                            tiles: alphaTiles.map { $0.tiles[0] }, codings: alphaTiles.map(\.coding),
                            layout: (columns, rows, tileSize, codedSize, size, origin)))
                }
            }
        }
        self.alpha = alpha
    }

    /// The alpha image of item `id` (an `auxl` item of an alpha type at the item's coded size), if it has one.
    private static func alphaImage(
        of id: Int, _ c: HEIFContainer, bytes: UnsafeRawBufferPointer, path: String,
        limits: ImageLimits
    ) -> HEIFImage? {
        for aux in c.items(referencing: id, with: "auxl") {
            let isAlpha = c.properties(of: aux).contains {
                if case .auxiliaryType(let urn) = $0 { alphaTypes.contains(urn) } else { false }
            }
            guard isAlpha,
                let image = try? HEIFImage(c, item: aux, bytes: bytes, path: path, limits: limits, withAlpha: false),
                image.codedSize == (c.size(of: id) ?? image.codedSize)
            else { continue }
            return image
        }
        return nil
    }

    /// A grid's `layout` over other `tiles` (its tiles' alpha images), without alpha, orientation or colour.
    private init(
        tiles: [Int], codings: [HEIFCoding],
        layout: (
            columns: Int, rows: Int, tileSize: PixelSize, codedSize: PixelSize, size: PixelSize,
            origin: (x: Int, y: Int)
        )
    ) {
        self.tiles = tiles
        item = tiles[0]
        (columns, rows, tileSize, codedSize, size, origin) = layout
        self.codings = codings
        orientation = .up
        transformNotEssential = false
        nclx = nil
        icc = nil
        alpha = nil
    }
}
