import CShrinkWebP
import ShrinkCore

/// Writes WebP with libwebp: lossy (VP8, with an alpha plane when the pixels have alpha) or lossless (VP8L).
/// A yuv420 thumbnail goes into the lossy encoder as it is, with no RGB round trip; RGB and RGBA are
/// imported (converted to YUV inside libwebp for lossy); other formats are converted first. The ICC profile
/// (and, when asked, EXIF) are added with libwebp's muxer.
///
/// Memory: libwebp's picture (1.5 B/px for lossy, 4 B/px for lossless when the pixels are not yuv420) and
/// its output, both of the thumbnail's size.
public struct WebPEncoder: ImageEncoding {
    /// Encoder settings.
    public struct Options: Sendable {
        /// Lossy quality 1–100 (for lossless: effort spent on compression). 80 by default.
        public var quality: Int
        /// Lossless (VP8L) instead of lossy. `false` by default.
        public var lossless: Bool
        /// Compression effort 0 (fast) – 6 (smallest). 4 by default (libwebp's default).
        public var method: Int
        /// Embed the source's ICC profile (an ICCP chunk). `true` by default.
        public var keepICCProfile: Bool
        /// Embed the source's EXIF block, orientation reset to 1. `false` by default (it may hold GPS).
        public var keepEXIF: Bool
        /// Keep the colour under fully transparent pixels (libwebp's `-exact`); by default libwebp may change
        /// it to whatever compresses best. `false` by default.
        public var exact: Bool

        /// Options with the defaults above, or the values given.
        public init(
            quality: Int = 80, lossless: Bool = false, method: Int = 4, keepICCProfile: Bool = true,
            keepEXIF: Bool = false,
            exact: Bool = false
        ) {
            self.exact = exact
            self.quality = quality
            self.lossless = lossless
            self.method = method
            self.keepICCProfile = keepICCProfile
            self.keepEXIF = keepEXIF
        }
    }

    /// How this encoder writes.
    public var options: Options

    /// An encoder with `options` (lossy, quality 80 by default).
    public init(options: Options = Options()) {
        self.options = options
    }

    public var format: ImageFormat { .webp }

    /// `libwebp` and the encoder's version (`libwebp 1.2.4`), loading libwebp; why not when it cannot be loaded.
    public var library: String {
        do { return try Self.library() } catch { return "libwebp (not available: \(error.reason))" }
    }

    /// `libwebp` and the encoder's version, once libwebp (with its demuxer and muxer) is loaded. Fails with
    /// `.unsupportedFeature` when it cannot be (a server negotiating WebP checks this before it starts).
    public static func library() throws(ImageError) -> String {
        try WebPLibrary.load(for: "writing WebP")
        let v = WebPGetEncoderVersion()
        return "libwebp \(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
    }

    /// Lossy takes YUV 4:2:0 as it is (what VP8 codes); lossless takes the decoder's own pixels.
    public var preferredPixels: PixelFormatRequest { options.lossless ? .native : .memoryOptimized }

    /// Encodes `image`. Fails with `.invalidArgument` for settings out of range or an image over 16383
    /// pixels on a side (WebP's limit), `.outOfMemory` when libwebp cannot allocate.
    public func encode(_ image: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        try WebPLibrary.load(for: "writing WebP")
        guard (1...100).contains(options.quality) else {
            throw ImageError(.invalidArgument, "WebP quality must be 1-100, not \(options.quality)")
        }
        guard (0...6).contains(options.method) else {
            throw ImageError(.invalidArgument, "WebP method must be 0-6, not \(options.method)")
        }
        let size = image.size
        guard size.width <= Int(WEBP_MAX_DIMENSION), size.height <= Int(WEBP_MAX_DIMENSION) else {
            throw ImageError(
                .invalidArgument, "WebP images are at most \(WEBP_MAX_DIMENSION) pixels on a side, not \(size)")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImageError(.unsupportedFeature, "libwebp does not match the headers Shrink was built with")
        }
        config.quality = Float(options.quality)
        config.lossless = options.lossless ? 1 : 0
        config.method = Int32(options.method)
        config.exact = options.exact ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw ImageError(.invalidArgument, "libwebp refused the encoder settings")
        }

        let pixels: PixelBuffer =
            switch image.format {
            case .yuv420 where !options.lossless: Self.limitedRange(image)
            case .rgb8, .rgba8: image
            case _ where image.format.hasAlpha: PixelConverter.convert(image, to: .rgba8)
            default: PixelConverter.convert(image, to: .rgb8)
            }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageError(.unsupportedFeature, "libwebp does not match the headers Shrink was built with")
        }
        picture.width = Int32(size.width)
        picture.height = Int32(size.height)
        picture.use_argb = options.lossless ? 1 : 0
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded: Bool = pixels.bytes.withUnsafeBufferPointer { p -> Bool in
            let base = UnsafeMutablePointer(mutating: p.baseAddress!)
            switch pixels.format {
            case .yuv420:
                // The planes in VP8's range: libwebp reads them and writes nothing back.
                let planes = PixelFormat.yuv420.planes(for: size)
                picture.colorspace = WEBP_YUV420
                picture.y = base + planes[0].offset
                picture.u = base + planes[1].offset
                picture.v = base + planes[2].offset
                picture.y_stride = Int32(size.width)
                picture.uv_stride = Int32((size.width + 1) / 2)
            case .rgba8:
                guard WebPPictureImportRGBA(&picture, base, Int32(size.width * 4)) != 0 else { return false }
            default:
                guard WebPPictureImportRGB(&picture, base, Int32(size.width * 3)) != 0 else { return false }
            }
            defer { WebPPictureFree(&picture) }
            picture.writer = WebPMemoryWrite
            return withUnsafeMutablePointer(to: &writer) { w in
                picture.custom_ptr = UnsafeMutableRawPointer(w)
                return WebPEncode(&config, &picture) != 0
            }
        }
        guard encoded, let mem = writer.mem else {
            throw ImageError(
                picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? .outOfMemory : .invalidArgument,
                "libwebp could not encode the image (error \(picture.error_code.rawValue))")
        }
        let plain = Array(UnsafeBufferPointer(start: mem, count: writer.size))
        let icc = options.keepICCProfile ? metadata.iccProfile : nil
        let exif = options.keepEXIF ? metadata.exif : nil
        guard icc != nil || exif != nil else { return plain }
        return try Self.adding(icc: icc, exif: exif, to: plain)
    }

    /// yuv420 planes narrowed from the full range Shrink holds (JFIF) to VP8's limited range (Y 16–235,
    /// chroma 16–240; the same BT.601 matrix): one table lookup per sample, no RGB.
    static func limitedRange(_ image: PixelBuffer) -> PixelBuffer {
        let lumaBytes = image.size.pixelCount
        var bytes = image.bytes
        bytes.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count {
                let v = Int(p[i])
                p[i] =
                    i < lumaBytes
                    ? UInt8(16 + (v * 219 + 127) / 255) : UInt8(128 + ((v - 128) * 224 + (v >= 128 ? 127 : -127)) / 255)
            }
        }
        return PixelBuffer(format: .yuv420, size: image.size, bytes: bytes)
    }

    /// `webp` with ICCP and EXIF chunks added (libwebp's muxer writes the VP8X header they need).
    static func adding(icc: [UInt8]?, exif: [UInt8]?, to webp: [UInt8]) throws(ImageError) -> [UInt8] {
        let result: [UInt8]? = webp.withUnsafeBufferPointer { image in
            var data = WebPData(bytes: image.baseAddress, size: image.count)
            guard let mux = WebPMuxCreate(&data, 0) else { return nil }
            defer { WebPMuxDelete(mux) }
            func set(_ fourCC: String, _ bytes: [UInt8]?) -> Bool {
                guard let bytes, !bytes.isEmpty else { return true }
                return bytes.withUnsafeBufferPointer { b in
                    var chunk = WebPData(bytes: b.baseAddress, size: b.count)
                    return WebPMuxSetChunk(mux, fourCC, &chunk, 1) == WEBP_MUX_OK
                }
            }
            guard set("ICCP", icc), set("EXIF", exif) else { return nil }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let out = output.bytes else { return nil }
            defer { WebPDataClear(&output) }
            return Array(UnsafeBufferPointer(start: out, count: output.size))
        }
        guard let result else {
            throw ImageError(.invalidArgument, "libwebp's muxer could not add the ICC profile or EXIF block")
        }
        return result
    }
}
