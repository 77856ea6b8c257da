import CShrinkTIFF
import ShrinkCore

/// A TIFF's first image and the ways it can be decoded, read through libtiff without decoding any pixel.
///
/// Rows stream to the resampler a band at a time (a strip, or a row of tiles) through libtiff's RGBA reader, which
/// takes every photometric interpretation and compression libtiff reads (1- to 16-bit samples come out 8-bit). The
/// image's reduced-resolution versions — its SubIFDs and the pages after it marked reduced (a pyramid) — are its
/// reduced sizes: a thumbnail decodes the smallest one that covers it.
package struct TIFFDecoder: ImageDecoding {
    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    package let info: ImageInfo
    let limits: ImageLimits
    /// The image, then its reduced versions, smallest first; the last is the image.
    private let levels: [TIFFPage]
    private let reduced: ReducedSizes
    /// The ICC profile describes the decoded pixels (not for ink or CIELab, which libtiff converts itself).
    private let usesProfile: Bool
    /// The page this decoder reads (0 the first), and how many the file has (counted up to ``maxPages``).
    let pageIndex: Int
    package let pageCount: Int

    /// Pages counted at most (a longer chain is read as its first 1000).
    static let maxPages = 1000

    /// Reads the tags of page `index` (the first by default), the page chain and the page's reduced versions. Fails
    /// with `.corruptData` (not a TIFF libtiff reads, or an image it cannot decode), `.limitExceeded` (the pixel
    /// limit, from the tags), `.invalidArgument` (no such page) or `.unsupportedFeature`.
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits(), page index: Int = 0)
        throws(ImageError)
    {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        let handle = try TIFFHandle(bytes: bytes, path: path, maxAllocation: limits.maxWorkingBytes)
        let pages = handle.countPages(limit: Self.maxPages)
        guard index >= 0 && index < max(1, pages) && (index == 0 || handle.select(page: index)) else {
            throw ImageError(
                .invalidArgument,
                "\(path): page \(index) asked for, but the TIFF has \(pages) page\(pages == 1 ? "" : "s") (pages count from 0)"
            )
        }
        pageIndex = index
        pageCount = max(1, pages)
        let first = TIFFPage(handle, at: .page(index))
        try limits.check(first.size, path: path)
        if let refusal = first.unreadable {
            throw ImageError(
                first.inconsistent ? .corruptData : .unsupportedFeature, "\(path): this TIFF cannot be decoded",
                cause: refusal)
        }
        // The reduced versions: the page's SubIFDs, and later pages marked reduced (a pyramid's levels).
        var candidates: [TIFFPage] = []
        for offset in handle.subIFDs.prefix(64) where handle.select(subIFD: offset) {
            candidates.append(TIFFPage(handle, at: .subIFD(offset)))
        }
        var sizes: [PixelSize] = []
        for other in 0..<max(1, pages) where handle.select(page: other) {
            let page = other == index ? first : TIFFPage(handle, at: .page(other))
            sizes.append(page.size)
            if other > index && page.isReduced { candidates.append(page) }
        }
        let usable = candidates.filter {
            $0.unreadable == nil && $0.size.pixelCount < first.size.pixelCount && $0.size.pixelCount > 0
                && ReducedSizes.sameShape($0.size, first.size) && $0.orientation == first.orientation
        }
        var levels: [TIFFPage] = []
        for page in usable.sorted(by: { $0.size.pixelCount < $1.size.pixelCount })
        where levels.last?.size != page.size {
            levels.append(page)
        }
        levels.append(first)
        self.levels = levels
        reduced = ReducedSizes(full: first.size, reduced: levels.dropLast().map(\.size))

        var features = [Self.compressionName(first.compression), first.photometricName]
        if pages > 1 {
            features.append(
                "pages (from 0): " + sizes.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: ", ")
                    + (index > 0 ? "; page \(index) read" : ""))
        }
        if levels.count > 1 {
            features.append("reduced: " + levels.dropLast().map { "\($0.size)" }.joined(separator: ", "))
        }
        var warnings = handle.warnings.count > 0 ? ["libtiff: \(handle.warnings.first)"] : []
        // libtiff's RGBA reader turns ink (CMYK) and CIELab into RGB itself: a profile for those is not the pixels'.
        // Ink read from its samples goes through the (colour-managed) ink conversion, which takes the profile.
        let profileApplies = first.readsSamples || (first.photometric != 5 && first.photometric != 8)
        if !profileApplies && first.iccProfileBytes > 0 {
            warnings.append("the \(first.photometricName) ICC profile is not applied: libtiff converts to RGB naïvely")
        }
        usesProfile = profileApplies
        // Rows come out as libtiff's RGBA whatever the photometric interpretation (the colour model is theirs), but
        // for ink read from its samples.
        let model: ColorModel =
            first.readsSamples && first.photometric == 5
            ? .cmyk : first.isGray ? (first.hasAlpha ? .grayAlpha : .gray) : (first.hasAlpha ? .rgba : .rgb)
        info = ImageInfo(
            format: .tiff, size: first.size, orientation: first.orientation, colorModel: model,
            bitsPerComponent: first.bitsPerSample, hasAlpha: first.hasAlpha,
            iccProfileBytes: profileApplies ? first.iccProfileBytes : 0, features: features, warnings: warnings,
            layout: first.tile.map { "tiled \($0)" } ?? "strips of \(first.rowsPerStrip) rows",
            orientationSource: "TIFF")
    }

    /// The ICC profile of the page, copied out.
    package func metadata() throws(ImageError) -> ImageMetadata {
        var metadata = ImageMetadata()
        guard usesProfile, info.iccProfileBytes > 0 else { return metadata }
        let handle = try TIFFHandle(bytes: bytes, path: path, maxAllocation: limits.maxWorkingBytes)
        if pageIndex == 0 || handle.select(page: pageIndex), let profile = handle.iccProfile {
            metadata.iccProfile = Array(profile)
        }
        return metadata
    }

    /// Page `index` of the file, read from its tags.
    package func page(_ index: Int) throws(ImageError) -> any ImageDecoding {
        index == pageIndex ? self : try TIFFDecoder(bytes: bytes, path: path, limits: limits, page: index)
    }

    /// 1, and for each reduced version the least denominator its size covers.
    /// A pyramid's: 1 and a denominator per level. Otherwise, for an image read from its samples, any factor up to
    /// 64 (the rows summed into 1/d as they are read); else 1.
    package var scaleDenominators: [Int] {
        if isPyramid { return reduced.denominators }
        return levels[0].readsSamples ? Array(1...64) : [1]
    }

    package func scaledSize(denominator d: Int) -> PixelSize {
        if isPyramid { return reduced.sizes[reduced.index(denominator: d)] }
        return BoxReducer.reducedSize(info.size, d: d)
    }

    /// A pyramid's levels are finished images: the smallest covering one serves as it is.
    package var reducedImagesAreFiltered: Bool { isPyramid }

    /// The image has reduced versions of its own.
    private var isPyramid: Bool { levels.count > 1 }

    /// gray8 for gray, rgba8 with alpha, rgb8 otherwise.
    package var outputFormat: PixelFormat {
        let first = levels[levels.count - 1]
        if first.hasAlpha { return .rgba8 }
        return first.isGray ? .gray8 : .rgb8
    }

    /// Bands of rows from the chosen level: the band (4 bytes a pixel of a strip's or tile row's height through the
    /// RGBA reader, the stored samples otherwise) and libtiff's decoded strip or tile grow with the image; the handle
    /// and codec state do not.
    /// At 1/d (d > 1, no pyramid) the band is not held: each row (or each tile's rows) is summed into a few reduced
    /// rows as it is read (``BoxReducer``), beside one converted row and, for tiles, one decoded tile and its sums.
    /// A tiled page read from its samples lends its tiles to helper threads (``TIFFBlockRows``), and so does a stripped
    /// one at 1/d when the request may be helped (runs of whole strips, each at most ``TIFFBlockRows/maxStripRows``
    /// rows, their sums within ``TIFFBlockRows/maxStripSums``): helped, it holds a second band (at 1/d a ring of sums a
    /// row of blocks deeper), and each helper its own handle (with the page's block offsets), tile or stored row, and
    /// sums.
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let level = isPyramid ? levels[reduced.index(denominator: request.scaleDenominator)] : levels[0]
        let d = isPyramid || !level.readsSamples ? 1 : max(1, request.scaleDenominator)
        let format = outputFormat
        let block = TIFFBlockRows.block(level)
        // Blocks on threads: every tile; short strips at 1/d when helpers may come and their sums stay small (else
        // streamed a row at a time).
        let blocks =
            level.readsSamples
            && (level.tile != nil
                || (request.helped && TIFFBlockRows.splitsStrips(level, format: format, reduction: d)))
        let lends = blocks && TIFFBlockRows.splits(level)
        let laneBytes = TIFFBlockLane.bytes(level, block: block, format: format, reduction: d)
        let working: Int
        if blocks {
            working =
                TIFFBlockRows.bytes(level, format: format, reduction: d, helped: request.helped && lends) + laneBytes
        } else if d > 1 {
            working =
                BoxReducer.bytes(source: level.size, d: d, channels: format.channels, bandRows: level.bandRows)
                + level.size.width * (level.bytesPerPixel + format.channels)
        } else {
            let band = level.size.width * level.bandRows * (level.readsSamples ? level.bytesPerPixel : 4)
            working = band + (level.streamsRows ? 0 : level.blockBytes)
        }
        let stateBytes = 256 << 10
        let helperBytes = lends ? laneBytes + stateBytes + TIFFBlockRows.offsetBytes(level) : 0
        return DecodeRoute(
            path: level.tile == nil ? .tiffStrips : .tiffTiles, output: .rows(format),
            decodedSize: isPyramid ? level.size : scaledSize(denominator: d), workingBytes: working,
            stateBytes: stateBytes, geometry: level.size == info.size ? .blocks : .uniform, decoder: Self.library,
            helperBytes: helperBytes
        ) { [self] options, monitor throws(ImageError) in
            .rows(
                try TIFFRowDecoder(
                    decoder: self, page: level, format: format, ink: options.inkConverter ?? NaiveInk(), reduction: d,
                    blocks: blocks, helpers: lends ? options.helpers : nil, helperBytes: helperBytes, monitor: monitor))
        }
    }

    /// `libtiff` and its version ("LIBTIFF, Version 4.5.0" as libtiff says it).
    static let library: String = {
        let line = String(cString: cshrink_tiff_version()).split(separator: "\n").first.map(String.init) ?? ""
        return line.hasPrefix("LIBTIFF, Version ") ? "libtiff " + line.dropFirst(17) : line
    }()

    private static func compressionName(_ code: Int) -> String {
        switch code {
        case 1: "uncompressed"
        case 2, 3, 4: "CCITT"
        case 5: "LZW"
        case 6, 7: "JPEG"
        case 8, 32946: "Deflate"
        case 32773: "PackBits"
        case 34887: "LERC"
        case 34925: "LZMA"
        case 50000: "ZSTD"
        case 50001: "WebP"
        default: "compression \(code)"
        }
    }
}

extension DecodePath {
    /// A TIFF's strips decoded one at a time, their rows streamed (libtiff).
    public static let tiffStrips = DecodePath("tiffStrips")
    /// A TIFF's tiles decoded a row of tiles at a time, their rows streamed (libtiff).
    public static let tiffTiles = DecodePath("tiffTiles")
}
