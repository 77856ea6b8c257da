import CShrinkSPNG
import ShrinkCore

/// A PNG file's header and the ways it can be decoded, read with libspng without decoding any pixel.
///
/// Non-interlaced files stream rows straight to the resampler (no prescale needed: rows are cheap to skip
/// through). Adam7-interlaced files support any integer prescale: each pass's pixels are summed into a
/// grid of the reduced size at their true coordinates, so memory follows the reduced size, not the source.
package struct PNGDecoder: ImageDecoding {
    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    /// Header values.
    package let info: ImageInfo
    /// The limits every context is created with.
    package let limits: ImageLimits
    /// IHDR colour type (0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA).
    package let colorType: Int
    /// True for Adam7-interlaced files.
    package let isInterlaced: Bool
    /// Where an eXIf chunk placed after the image data sits in the file (found once, at init).
    let trailingExifRange: Range<Int>?
    /// Which colour and metadata chunks the file has (PLTE, tRNS, gAMA, sRGB, iCCP, cHRM before the image
    /// data; eXIf before or after it).
    package let chunks: Set<String>

    /// Reads the header and the chunks before the image data. Fails with `.corruptData`, `.truncated` or
    /// `.limitExceeded` (the pixel limit is checked from IHDR, before anything is allocated).
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        let stream = PNGStream(bytes: bytes)
        let ctx = try Self.context(stream: stream, limits: limits, path: path)
        defer { spng_ctx_free(ctx) }
        var ihdr = spng_ihdr()
        let status = spng_get_ihdr(ctx, &ihdr)
        guard status == 0 else { throw ImageError.png(status, path: path, during: "reading the header") }
        let size = PixelSize(width: Int(ihdr.width), height: Int(ihdr.height))
        try limits.check(size, path: path)
        colorType = Int(ihdr.color_type)
        isInterlaced = ihdr.interlace_method != 0

        var found = Set<String>()
        var plte = spng_plte(), trns = spng_trns(), gamma = 0.0, intent: UInt8 = 0, chrm = spng_chrm()
        var iccp = spng_iccp(), exif = spng_exif()
        // The first getter reads every chunk before IDAT; a missing chunk is SPNG_ECHUNKAVAIL, not an error.
        let first = spng_get_plte(ctx, &plte)
        if first == 0 {
            found.insert("PLTE")
        } else if first != Int32(SPNG_ECHUNKAVAIL.rawValue) {
            throw ImageError.png(first, path: path, during: "reading the chunks before the image data")
        }
        if spng_get_trns(ctx, &trns) == 0 { found.insert("tRNS") }
        if spng_get_gama(ctx, &gamma) == 0 { found.insert("gAMA") }
        if spng_get_srgb(ctx, &intent) == 0 { found.insert("sRGB") }
        if spng_get_chrm(ctx, &chrm) == 0 { found.insert("cHRM") }
        var iccBytes = 0
        if spng_get_iccp(ctx, &iccp) == 0 {
            found.insert("iCCP")
            iccBytes = iccp.profile_len
        }
        var orientation = ImageOrientation.up
        var exifBytes = 0
        var trailing: Range<Int>?
        var exifReader: ExifReader?
        if spng_get_exif(ctx, &exif) == 0, let data = exif.data {
            found.insert("eXIf")
            exifBytes = exif.length
            exifReader = ExifReader(tiff: UnsafeRawBufferPointer(start: data, count: exif.length))
        } else if let range = PNGChunkWalker.exifAfterImageData(in: bytes) {
            found.insert("eXIf")
            exifBytes = range.count
            exifReader = ExifReader(tiff: UnsafeRawBufferPointer(rebasing: bytes.bytes[range]))
            trailing = range
        }
        // Colour without a profile, by PNG's precedence: cICP, then iCCP, then sRGB, then gAMA and cHRM. A cICP
        // for non-RGB coding (matrix ≠ 0) is not PNG's and is ignored.
        var coded: CodedColor?
        if let cicp = PNGChunkWalker.codePointsBeforeImageData(in: bytes), cicp.matrix == 0 {
            found.insert("cICP")
            coded = .codePoints(primaries: cicp.primaries, transfer: cicp.transfer)
        } else if !found.contains("iCCP") && !found.contains("sRGB")
            && (found.contains("gAMA") || found.contains("cHRM"))
        {
            let white = (chrm.white_point_x, chrm.white_point_y)
            let chromaticities =
                found.contains("cHRM") && white.0 > 0 && white.1 > 0
                ? [
                    chrm.white_point_x, chrm.white_point_y, chrm.red_x, chrm.red_y, chrm.green_x, chrm.green_y,
                    chrm.blue_x, chrm.blue_y,
                ]
                : nil
            coded = .gammaAndChromaticities(
                gamma: found.contains("gAMA") && gamma > 0 ? gamma : nil, chromaticities: chromaticities)
        }
        orientation = exifReader?.orientation ?? .up
        trailingExifRange = trailing
        chunks = found
        let hasAlpha = colorType == 4 || colorType == 6 || found.contains("tRNS")
        let model: ColorModel =
            switch colorType {
            case 0: .gray
            case 3: .palette
            case 4: .grayAlpha
            case 6: .rgba
            default: .rgb
            }
        info = ImageInfo(
            format: .png, size: size, orientation: orientation, colorModel: model,
            bitsPerComponent: Int(ihdr.bit_depth), hasAlpha: hasAlpha, isProgressive: isInterlaced,
            iccProfileBytes: found.contains("cICP") ? 0 : iccBytes, exifBytes: exifBytes, codedColor: coded,
            features: ["PLTE", "tRNS", "gAMA", "sRGB", "iCCP", "cHRM", "cICP", "eXIf"].filter(found.contains),
            warnings: exifReader?.problem.map { ["\($0); EXIF ignored"] } ?? [],
            layout: isInterlaced ? "interlaced" : "non-interlaced")
    }

    /// The ICC profile (decompressed) and EXIF block. Reads the chunks before the image data again only
    /// when the header said iCCP or eXIf is there.
    package func metadata() throws(ImageError) -> ImageMetadata {
        var metadata = ImageMetadata()
        if let range = trailingExifRange { metadata.exif = Array(bytes.bytes[range]) }
        guard chunks.contains("iCCP") || (chunks.contains("eXIf") && trailingExifRange == nil) else { return metadata }
        let stream = PNGStream(bytes: bytes)
        let ctx = try Self.context(stream: stream, limits: limits, path: path)
        defer { spng_ctx_free(ctx) }
        var iccp = spng_iccp(), exif = spng_exif()
        // cICP takes precedence
        if !chunks.contains("cICP"), spng_get_iccp(ctx, &iccp) == 0, let profile = iccp.profile {
            metadata.iccProfile = Array(UnsafeRawBufferPointer(start: profile, count: iccp.profile_len))
        }
        if metadata.exif == nil, spng_get_exif(ctx, &exif) == 0, let data = exif.data {
            metadata.exif = Array(UnsafeRawBufferPointer(start: data, count: exif.length))
        }
        return metadata
    }

    /// Interlaced files shrink by any integer factor while decoding (box average of the passes); others
    /// decode at full size and stream.
    package var scaleDenominators: [Int] { isInterlaced ? Array(1...64) : [1] }

    package func scaledSize(denominator: Int) -> PixelSize {
        PixelSize(
            width: (info.size.width + denominator - 1) / denominator,
            height: (info.size.height + denominator - 1) / denominator)
    }

    /// Non-interlaced rows stream, so nothing grows with the image: 0. An interlaced decode at 1/d holds
    /// its accumulation grid (2 or 4 bytes per sample of the reduced size) and then the averaged rows; at
    /// full size it holds one whole image of ``rowFormat``.
    package func workingBytes(scaleDenominator d: Int = 1) -> Int {
        guard isInterlaced else { return 0 }
        let s = scaledSize(denominator: d)
        let rows = rowFormat.byteCount(for: s)
        if d == 1 { return rows }
        return s.pixelCount * rowFormat.channels * (Self.sumIsNarrow(rowFormat, d) ? 2 : 4) + rows
    }

    /// libspng's and zlib's state while decoding: the 32 KiB inflate window and its tables (64 KiB in all) plus four
    /// rows of the full width at the file's depth (libspng's current and previous scanlines and their filtered copies).
    /// A mapped input adds the pages read and not yet released (``PNGStream/dropStep`` plus a 64 KiB fault-around
    /// block). Calibrated with mallinfo2 (BENCHMARKS.md, "Figures behind the code").
    package func stateBytes(scaleDenominator: Int) -> Int {
        let input = bytes.isPageAlignedMapping ? PNGStream.dropStep + 64 << 10 : 0
        return 64 << 10 + 4 * rowFormat.byteCount(for: PixelSize(width: info.size.width, height: 1)) + input
    }

    /// The layout decoded rows come in: gray8 for 8-bit-or-less gray without transparency, rgb8 for opaque
    /// colour and palette, rgba8 when there is alpha, rgba16 for every 16-bit file.
    package var rowFormat: PixelFormat {
        if info.bitsPerComponent == 16 { return .rgba16 }
        if colorType == 0 && !info.hasAlpha { return .gray8 }
        return info.hasAlpha ? .rgba8 : .rgb8
    }

    /// The 8-bit format results are delivered in: 16-bit files reduce in 16-bit precision and come out 8-bit.
    package var outputFormat: PixelFormat {
        if info.hasAlpha { return .rgba8 }
        return colorType == 0 ? .gray8 : .rgb8
    }

    /// The route for `request`: rows streamed at full size, or for an interlaced file the Adam7 passes
    /// summed into a grid at 1/`scaleDenominator` (any integer).
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let d = request.scaleDenominator
        return DecodeRoute(
            path: isInterlaced ? .interlacedPasses : .rows, output: .rows(rowFormat),
            decodedSize: scaledSize(denominator: d), workingBytes: workingBytes(scaleDenominator: d),
            stateBytes: stateBytes(scaleDenominator: d), decoder: "libspng"
        ) { [self] options, _ throws(ImageError) in
            .rows(try startDecoding(scaleDenominator: d, options: options))
        }
    }

    /// Starts a row decode at 1/`scaleDenominator` (1 unless interlaced).
    package func startDecoding(scaleDenominator: Int, options: DecodeOptions) throws(ImageError) -> any RowDecoding {
        guard scaleDenominators.contains(scaleDenominator) else {
            throw ImageError(.invalidArgument, "\(path): PNG scale 1/\(scaleDenominator) is not supported")
        }
        return try PNGRowDecoder(decoder: self, scaleDenominator: scaleDenominator, strict: options.strict)
    }

    /// A libspng context reading `stream` with `limits` applied. Unless `strict`, the zlib stream's Adler-32
    /// checksum is not verified (libpng, libvips and Pillow do not verify it either: the pixels are complete
    /// before it); chunk CRCs always are.
    static func context(stream: PNGStream, limits: ImageLimits, path: String, strict: Bool = false) throws(ImageError)
        -> OpaquePointer
    {
        let flags = strict ? 0 : Int32(SPNG_CTX_IGNORE_ADLER32.rawValue)
        guard let ctx = spng_ctx_new(flags) else {
            throw ImageError(.outOfMemory, "\(path): cannot create a PNG decoder")
        }
        var status = stream.attach(to: ctx)
        if status == 0 { status = spng_set_chunk_limits(ctx, limits.maxChunkBytes, limits.maxChunkBytes * 4) }
        guard status == 0 else {
            spng_ctx_free(ctx)
            throw ImageError.png(status, path: path, during: "setting up the decoder")
        }
        return ctx
    }

    /// Sums of an 8-bit decode's box fit 16 bits when `d² × 255 < 65536`.
    static func sumIsNarrow(_ format: PixelFormat, _ d: Int) -> Bool {
        format != .rgba16 && d * d * 255 <= Int(UInt16.max)
    }
}
