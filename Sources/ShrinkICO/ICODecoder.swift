import ShrinkBMP
import ShrinkCore
import ShrinkPNG

/// An icon or cursor (ICO, CUR): the largest entry is the image, and its smaller entries of the same shape are its
/// reduced sizes, so a thumbnail decodes the smallest entry that covers it (the icon's designer drew it for that
/// size) instead of shrinking the largest. Each entry is a PNG, read by the PNG codec, or a BMP without its file
/// header, read by the BMP codec with its AND mask as alpha. Only the entries' headers are read here.
package struct ICODecoder: ImageDecoding {
    /// The name used in error messages.
    package let path: String
    package let info: ImageInfo
    /// The entries that opened, smallest first, one per size (the deepest of equal ones); the last is the image.
    private let sizes: [any ImageDecoding]
    /// Their sizes as decode-time scales.
    private let reduced: ReducedSizes

    /// Reads the directory and each entry's header. The image is the entry Pillow shows (the largest listed, the
    /// deepest of equal ones): it fails as that entry fails (`.truncated` when the file no longer holds it); a
    /// smaller entry that does not open is left out, with a warning.
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.path = path
        let directory = try ICODirectory(bytes.bytes, path: path)
        let order = directory.entries.indices.sorted { directory.entries[$0].rank < directory.entries[$1].rank }
        var opened: [(entry: ICOEntry, decoder: any ImageDecoding)] = []
        var warnings: [String] = []
        for i in order.reversed() {
            let entry = directory.entries[i], isImage = opened.isEmpty
            let name = "\(path) (entry \(i + 1))"
            do throws(ImageError) {
                guard entry.isInside else {
                    throw ImageError(.truncated, "\(name): the file ends before the image the icon lists")
                }
                let slice = ImageBytes(slice: entry.range, of: bytes, name: name)
                let decoder: any ImageDecoding =
                    entry.isPNG
                    ? try PNGDecoder(bytes: slice, path: name, limits: limits)
                    : try BMPDecoder(entryIn: slice, at: 0, path: name, limits: limits)
                opened.insert((entry, decoder), at: 0)
            } catch {
                if isImage { throw error }
                warnings.append("entry \(i + 1) is not read: \(error.reason)")
            }
        }
        let main = opened[opened.count - 1]
        func depth(_ e: (entry: ICOEntry, decoder: any ImageDecoding)) -> Int {
            (e.decoder as? BMPDecoder)?.bitCount ?? 32
        }
        let full = main.decoder.info.size
        // Reduced sizes: smaller entries of the image's shape, smallest first, the deepest of each size.
        var sizes: [any ImageDecoding] = []
        let smaller = opened.dropLast().filter {
            let s = $0.decoder.info.size
            return s.pixelCount < full.pixelCount && s.width * full.height == s.height * full.width
        }
        for candidate in smaller.sorted(by: {
            ($0.decoder.info.size.pixelCount, depth($0)) < ($1.decoder.info.size.pixelCount, depth($1))
        }) {
            if let last = sizes.last, last.info.size == candidate.decoder.info.size { sizes.removeLast() }
            sizes.append(candidate.decoder)
        }
        sizes.append(main.decoder)
        self.sizes = sizes
        reduced = ReducedSizes(full: full, reduced: sizes.dropLast().map(\.info.size))
        if directory.skipped > 0 {
            warnings.append("\(directory.skipped) entries beyond the first \(ICODirectory.maxEntries) are not read")
        }
        var info = main.decoder.info
        info.format = .ico
        info.features =
            [directory.isCursor ? "cursor" : "icon"]
            + opened.map { "\($0.decoder.info.size) \($0.entry.isPNG ? "PNG" : "BMP \(depth($0))-bit")" }
        info.layout =
            "\(directory.isCursor ? "cursor" : "icon") of \(opened.count) image\(opened.count == 1 ? "" : "s")"
        info.warnings += warnings
        info.hasAlpha = sizes.contains { $0.info.hasAlpha }
        self.info = info
    }

    private var image: any ImageDecoding { sizes[sizes.count - 1] }

    /// The image's metadata (a PNG entry's profile).
    package func metadata() throws(ImageError) -> ImageMetadata { try image.metadata() }

    /// 1, and for each smaller entry the least denominator its size covers.
    package var scaleDenominators: [Int] { reduced.denominators }

    package func scaledSize(denominator: Int) -> PixelSize { entry(denominator: denominator).info.size }

    /// Entries are drawn at their sizes: the smallest covering one serves as it is.
    package var reducedImagesAreFiltered: Bool { true }

    /// The smallest entry at least 1/`denominator` of the image on both axes.
    private func entry(denominator d: Int) -> any ImageDecoding { sizes[reduced.index(denominator: d)] }

    /// RGBA when any entry has transparency, else the image's format.
    package var outputFormat: PixelFormat { info.hasAlpha ? .rgba8 : image.outputFormat }

    /// The chosen entry's own route, at its full size; a smaller entry spans the whole image (uniform geometry).
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let chosen = entry(denominator: request.scaleDenominator)
        let own = chosen.route(RouteRequest(scaleDenominator: 1, wantsSixteenBit: request.wantsSixteenBit))
        return DecodeRoute(
            path: own.path, output: own.output, decodedSize: own.decodedSize, workingBytes: own.workingBytes,
            stateBytes: own.stateBytes, geometry: chosen.info.size == info.size ? own.geometry : .uniform,
            decoder: own.decoder
        ) { options, monitor throws(ImageError) in try own.start(options: options, monitor: monitor) }
    }
}
