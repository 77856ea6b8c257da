#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSPNG
import ShrinkCore

/// Encodes gray8, rgb8 or rgba8 pixels as a lossless 8-bit PNG with libspng.
///
/// Memory: the encoded output plus libspng's deflate state; pixels are read in place.
public struct PNGEncoder: Sendable {
    /// Encoder settings.
    public struct Options: Sendable {
        /// zlib compression level, 0 (none) – 9 (smallest). `6` by default.
        public var compressionLevel: Int

        public init(compressionLevel: Int = 6) {
            self.compressionLevel = compressionLevel
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The PNG bytes of `image`. Fails with `.invalidArgument` for unsupported formats or settings,
    /// `.encodingFailed` when libspng fails.
    public func encode(_ image: PixelBuffer) throws(ImageError) -> [UInt8] {
        let colorType: spng_color_type
        switch image.format {
        case .gray8: colorType = SPNG_COLOR_TYPE_GRAYSCALE
        case .rgb8: colorType = SPNG_COLOR_TYPE_TRUECOLOR
        case .rgba8: colorType = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA
        default: throw ImageError(.invalidArgument, "PNG encoding takes gray8, rgb8 or rgba8 pixels, not \(image.format.rawValue)")
        }
        guard (0...9).contains(options.compressionLevel) else {
            throw ImageError(.invalidArgument, "PNG compression level must be 0–9, not \(options.compressionLevel)")
        }
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw ImageError(.outOfMemory, "cannot create a PNG encoder")
        }
        defer { spng_ctx_free(ctx) }
        func check(_ code: Int32, _ what: String) throws(ImageError) {
            guard code == 0 else {
                throw ImageError(.encodingFailed, "PNG encoding failed (\(what))", cause: String(cString: spng_strerror(code)))
            }
        }
        try check(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), "buffer")
        try check(spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, Int32(options.compressionLevel)), "level")
        var ihdr = spng_ihdr(width: UInt32(image.size.width), height: UInt32(image.size.height), bit_depth: 8,
                             color_type: UInt8(colorType.rawValue), compression_method: 0, filter_method: 0,
                             interlace_method: 0)
        try check(spng_set_ihdr(ctx, &ihdr), "header")
        let status = image.bytes.withUnsafeBytes { raw in
            spng_encode_image(ctx, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue),
                              Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        try check(status, "image")
        var length = 0
        var error: Int32 = 0
        guard let out = spng_get_png_buffer(ctx, &length, &error) else {
            try check(error == 0 ? -1 : error, "output")
            return []
        }
        defer { free(out) }
        return Array(UnsafeRawBufferPointer(start: out, count: length))
    }
}
