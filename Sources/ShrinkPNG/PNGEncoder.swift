#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkSPNG
import ShrinkCore

/// Encodes gray8, rgb8, rgba8 or rgba16 pixels as a lossless PNG (8- or 16-bit) with libspng; other
/// formats are converted first (YUV to rgb8, other alpha layouts to straight rgba8).
///
/// Memory: the encoded output plus libspng's deflate state; pixels are read in place unless the bit depth
/// changes (8-bit widened to 16, or 16 narrowed to 8: one converted copy).
public struct PNGEncoder: ImageEncoding {
    /// Which scanline filters the encoder may choose from (it picks per row among those allowed).
    public enum Filters: String, Sendable, CaseIterable {
        /// No filtering: fastest, largest; what libvips writes by default. The default.
        case none
        /// Each byte minus the one to its left.
        case sub
        /// Each byte minus the one above.
        case up
        /// Each byte minus the mean of left and above.
        case average
        /// Each byte minus Paeth's predictor of left, above and above-left.
        case paeth
        /// Try all five per row (libpng's heuristic): the smallest files, for more CPU than `none` (every row filtered
        /// five ways; sizes and CPU: BENCHMARKS.md, "Figures behind the code").
        case adaptive
        /// `adaptive` up to ``adaptiveLimit`` pixels (thumbnails), `none` above (full-size images).
        case auto

        /// The largest image `auto` filters adaptively: 4 MP.
        public static let adaptiveLimit = 4 << 20

        /// The filters used for an image of `pixels` pixels (`auto` resolved).
        func resolved(pixels: Int) -> Filters {
            self == .auto ? (pixels <= Self.adaptiveLimit ? .adaptive : .none) : self
        }

        var mask: Int32 {
            let v: spng_filter_choice =
                switch self {
                case .none: SPNG_FILTER_CHOICE_NONE
                case .sub: SPNG_FILTER_CHOICE_SUB
                case .up: SPNG_FILTER_CHOICE_UP
                case .average: SPNG_FILTER_CHOICE_AVG
                case .paeth: SPNG_FILTER_CHOICE_PAETH
                case .adaptive, .auto: SPNG_FILTER_CHOICE_ALL
                }
            return Int32(v.rawValue)
        }
    }

    /// Encoder settings.
    public struct Options: Sendable {
        /// zlib compression level, 0 (none) – 9 (smallest). `6` by default.
        public var compressionLevel: Int
        /// Scanline filters. `.none` by default, as libvips writes; `.auto` or `.adaptive` for smaller files.
        public var filters: Filters
        /// Bits per sample in the file, 8 or 16 (8-bit pixels are widened exactly, v × 257). `8` by default,
        /// or 16 for rgba16 pixels.
        public var bitDepth: Int?
        /// Write the source's ICC profile (iCCP). `true` by default.
        public var keepICCProfile: Bool
        /// Write the source's EXIF block (eXIf, orientation reset to 1). `false` by default: EXIF may carry GPS.
        public var keepEXIF: Bool

        /// Options with the defaults above, or the values given.
        public init(
            compressionLevel: Int = 6, filters: Filters = .none, bitDepth: Int? = nil,
            keepICCProfile: Bool = true, keepEXIF: Bool = false
        ) {
            self.compressionLevel = compressionLevel
            self.filters = filters
            self.bitDepth = bitDepth
            self.keepICCProfile = keepICCProfile
            self.keepEXIF = keepEXIF
        }
    }

    /// How this encoder writes.
    public var options: Options

    /// An encoder with `options` (level 6, no filter, the pixels' own depth by default).
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The PNG bytes of `image`, with the parts of `metadata` the options keep. Fails with
    /// `.invalidArgument` for unsupported formats or settings, `.encodingFailed` when libspng fails.
    public func encode(_ image: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        let colorType: spng_color_type
        switch image.format {
        case .gray8: colorType = SPNG_COLOR_TYPE_GRAYSCALE
        case .rgb8: colorType = SPNG_COLOR_TYPE_TRUECOLOR
        case .rgba8, .rgba16: colorType = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA
        default:
            // PNG stores RGB(A): YUV converts to rgb8, other alpha layouts to straight rgba8.
            return try encode(
                PixelConverter.convert(image, to: image.format.hasAlpha ? .rgba8 : .rgb8), metadata: metadata)
        }
        guard (0...9).contains(options.compressionLevel) else {
            throw ImageError(.invalidArgument, "PNG compression level must be 0–9, not \(options.compressionLevel)")
        }
        let depth = options.bitDepth ?? (image.format == .rgba16 ? 16 : 8)
        guard depth == 8 || depth == 16 else {
            throw ImageError(.invalidArgument, "PNG bit depth must be 8 or 16, not \(depth)")
        }
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw ImageError(.outOfMemory, "cannot create a PNG encoder")
        }
        defer { spng_ctx_free(ctx) }
        func check(_ code: Int32, _ what: String) throws(ImageError) {
            guard code == 0 else {
                throw ImageError(
                    .encodingFailed, "PNG encoding failed (\(what))", cause: String(cString: spng_strerror(code)))
            }
        }
        try check(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), "buffer")
        try check(spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, Int32(options.compressionLevel)), "level")
        try check(
            spng_set_option(ctx, SPNG_FILTER_CHOICE, options.filters.resolved(pixels: image.size.pixelCount).mask),
            "filters")
        var ihdr = spng_ihdr(
            width: UInt32(image.size.width), height: UInt32(image.size.height), bit_depth: UInt8(depth),
            color_type: UInt8(colorType.rawValue), compression_method: 0, filter_method: 0,
            interlace_method: 0)
        try check(spng_set_ihdr(ctx, &ihdr), "header")
        // Kept alive until the image is encoded: libspng holds the pointers.
        var icc = options.keepICCProfile ? metadata.iccProfile ?? [] : []
        var exif = options.keepEXIF ? metadata.exif ?? [] : []
        if !icc.isEmpty {
            var iccp = spng_iccp()
            withUnsafeMutableBytes(of: &iccp.profile_name) { name in
                for (i, b) in "ICC profile".utf8.enumerated() { name[i] = b }
            }
            iccp.profile_len = icc.count
            try icc.withUnsafeMutableBufferPointer { (p: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
                iccp.profile = UnsafeMutableRawPointer(p.baseAddress!).assumingMemoryBound(to: CChar.self)
                try check(spng_set_iccp(ctx, &iccp), "ICC profile")
            }
        }
        if !exif.isEmpty {
            var block = spng_exif()
            block.length = exif.count
            try exif.withUnsafeMutableBufferPointer { (p: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
                block.data = UnsafeMutableRawPointer(p.baseAddress!).assumingMemoryBound(to: CChar.self)
                try check(spng_set_exif(ctx, &block), "EXIF")
            }
        }
        let status: Int32
        if depth == 8 && image.format != .rgba16 {
            status = image.bytes.withUnsafeBytes { raw in
                spng_encode_image(
                    ctx, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
            }
        } else {
            let samples = Self.pngSamples(image, depth: depth)
            status = samples.withUnsafeBytes { raw in
                spng_encode_image(
                    ctx, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
            }
        }
        try check(status, "image")
        _ = (icc.count, exif.count)
        var length = 0
        var error: Int32 = 0
        guard let out = spng_get_png_buffer(ctx, &length, &error) else {
            try check(error == 0 ? -1 : error, "output")
            return []
        }
        defer { free(out) }
        return Array(UnsafeRawBufferPointer(start: out, count: length))
    }

    /// Samples for `depth` as libspng takes them with SPNG_FMT_PNG (16-bit in host byte order; it writes
    /// big-endian itself): rgba16 as is, 8-bit widened as v × 257, or rgba16 narrowed to 8 bits.
    private static func pngSamples(_ image: PixelBuffer, depth: Int) -> [UInt8] {
        if image.format == .rgba16 {
            if depth == 16 { return image.bytes }
            return image.bytes.withUnsafeBytes { raw in
                raw.bindMemory(to: UInt16.self).map { UInt8((UInt32($0) * 255 + 32767) / 65535) }
            }
        }
        return image.bytes.flatMap { [$0, $0] }
    }
}
