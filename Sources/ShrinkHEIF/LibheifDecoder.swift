import CShrinkHeif
import ShrinkCore

/// The fallback for HEIF and AVIF primary items the tile path does not decode: derived images (`iden`, an
/// image with transforms of its own; `iovl`, images placed on a canvas) over HEVC or AV1 items. libheif
/// decodes the whole image to RGB(A) with the decoder chosen by name (`libde265` or `dav1d`, never aom) and
/// applies `clap`/`irot`/`imir` itself, so the image is reported upright. Charged at its full cost before decoding, per
/// pixel of the result: 20 bytes, 22 with alpha (the YUV picture, the decoder's frame, the RGB image and its rotated
/// copy; calibrated against the allocator's high-water mark: BENCHMARKS.md, "Figures behind the code") — against the
/// tile path's band of planes, 1.5 bytes a pixel at 4:2:0.
package struct LibheifDecoder: ImageDecoding {
    package let bytes: ImageBytes
    package let path: String
    package let info: ImageInfo
    /// libheif's id of the decoder of the coded items (`libde265` or `dav1d`).
    let decoderID: String
    private let maxSide: Int
    /// The primary's ICC profile as libheif reads it (of the derived item or the items under it), and the
    /// range of its EXIF block in `bytes`.
    private let icc: [UInt8]?
    private let exif: Range<Int>?

    /// The derived item types libheif decodes for us.
    static let derivedTypes: Set<String> = ["iden", "iovl"]

    /// Describes the primary item of `container`, a derived image (``derivedTypes``). Fails with
    /// `.unsupportedFeature` when it is built from anything but HEVC or AV1 items, or from both; with
    /// `.limitExceeded` when it or an item it is built from is above `limits` (read from the boxes, before
    /// libheif allocates anything); with libheif's error when libheif cannot read it.
    init(bytes: ImageBytes, path: String, container c: HEIFContainer, limits: ImageLimits, format: ImageFormat)
        throws(ImageError)
    {
        self.bytes = bytes
        self.path = path
        // The coded items the derivation reads, through nested derivations (each item once, depth bounded).
        var coded: [Int: String] = [:], pending = [c.primaryID], seen: Set<Int> = []
        while let id = pending.popLast() {
            guard seen.insert(id).inserted, seen.count <= HEIFLimits.maxItems else { continue }
            guard let type = c.items[id]?.type else {
                throw ImageError(.corruptData, "\(path): HEIF item \(id) is referenced but not declared")
            }
            if let size = c.size(of: id) { try limits.check(size, path: path, what: "item \(id)") }
            if Self.derivedTypes.contains(type) { pending += c.references("dimg", from: id) } else { coded[id] = type }
        }
        let types = Set(coded.values)
        decoderID =
            switch types {
            case ["hvc1"]: "libde265"
            case ["av01"]: "dav1d"
            case []:
                throw ImageError(
                    .corruptData, "\(path): HEIF '\(c.items[c.primaryID]?.type ?? "?")' image built from no coded image"
                )
            default:
                throw ImageError(
                    .unsupportedFeature,
                    "\(path): HEIF derived image built from \(types.sorted().joined(separator: ", ")) items (HEVC or AV1 only)"
                )
            }
        maxSide = min(limits.maxPixels, 1 << 20)
        let heif = try LibheifContext(bytes.bytes, maxSide: maxSide, path: path)
        try limits.check(heif.size, path: path)
        icc = heif.iccProfile
        exif = HEIFDecoder.exifRange(c, bytes: bytes.bytes)
        let type = c.items[c.primaryID]?.type ?? "?"
        info = ImageInfo(
            format: format, size: heif.size, orientation: .up, colorModel: .yCbCr,
            bitsPerComponent: heif.bitDepth, hasAlpha: heif.hasAlpha,
            iccProfileBytes: icc?.count ?? 0, exifBytes: exif?.count ?? 0,
            features: [
                "derived image '\(type)' over \(coded.count) \(types.first == "av01" ? "AV1" : "HEVC") item(s), decoded whole by \(Self.decoderName(decoderID))",
                "orientation applied by libheif",
            ] + (heif.hasAlpha ? ["alpha"] : []), orientationSource: "irot/imir")
    }

    /// "libheif 1.15.1 (dav1d)": the library and the decoder it was told to use, as telemetry and info name them.
    static func decoderName(_ decoderID: String) -> String {
        "libheif \(String(cString: shrink_heif_get_version())) (\(decoderID))"
    }

    package func metadata() throws(ImageError) -> ImageMetadata {
        ImageMetadata(iccProfile: icc, exif: exif.map { Array(bytes.bytes[$0]) })
    }

    /// libheif decodes at full size only.
    package var scaleDenominators: [Int] { [1] }

    package func scaledSize(denominator: Int) -> PixelSize { info.size }

    package var outputFormat: PixelFormat { info.hasAlpha ? .rgba8 : .rgb8 }

    /// The whole image through libheif (`libheifWhole`): working memory 20 B/px (22 with alpha), and a fixed 4 MiB for
    /// libheif's and the decoder's own state (BENCHMARKS.md, "Figures behind the code"). Windows are cut after the
    /// decode.
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let (bytes, path, size, format, decoderID, maxSide) = (bytes, path, info.size, outputFormat, decoderID, maxSide)
        return DecodeRoute(
            path: .libheifWhole, output: .rows(format), decodedSize: size,
            workingBytes: size.pixelCount * (format == .rgba8 ? 22 : 20), stateBytes: 4 << 20,
            decoder: Self.decoderName(decoderID)
        ) { _, monitor throws(ImageError) in
            try monitor?.checkpoint(row: 0)
            let heif = try LibheifContext(bytes.bytes, maxSide: maxSide, path: path)
            guard heif.size == size else {
                throw ImageError(.corruptData, "\(path): libheif reads \(heif.size), not the \(size) it read before")
            }
            let decoded = try heif.decode(alpha: format == .rgba8, decoder: decoderID, path: path)
            return .rows(try LibheifRowDecoder(image: decoded, size: size, format: format, path: path))
        }
    }
}
