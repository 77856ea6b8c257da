import CShrinkAVIF
import ShrinkCore

/// Writes AVIF with libavif and its aom encoder (libaom's all-intra mode, one thread): lossy at a quality, or
/// lossless (4:4:4 with the identity matrix). A yuv420 thumbnail goes in as its planes, with no RGB round trip; gray
/// goes in as a monochrome (4:0:0) image; RGB and RGBA are converted to YUV 4:2:0 by libavif; `rgba16` is written
/// with 10 bits a sample. Alpha is an auxiliary AV1 image at the same quality. The colour is signalled as the ICC
/// profile when one is kept, else as sRGB (BT.709 primaries, sRGB transfer) in an `nclx` box.
///
/// libavif is loaded on the first encode (it links every AV1 codec Debian builds); the first encode in a process pays
/// for that load. Memory: the YUV image (1.5 bytes a pixel for 4:2:0, 3 for 4:4:4, twice that at 10 bits, plus
/// the alpha plane), aom's encoder state, which grows with the pixel count, and the output.
public struct AVIFEncoder: ImageEncoding {
    /// Encoder settings.
    public struct Options: Sendable {
        /// Quality 1–100 on JPEG's scale: at a given number the file keeps about the PSNR JPEG keeps at that
        /// number, in fewer bytes (``AVIFEncoder/quantizer(forQuality:)`` gives the AV1 quantizer it maps to).
        /// 80 by default.
        public var quality: Int
        /// Lossless: quantizer 0, 4:4:4, identity matrix; the pixels come back exactly. `false` by default.
        public var lossless: Bool
        /// aom's speed, 0 (slowest, smallest) – 9 (fastest). 8 by default: the setting that, on thumbnails, still
        /// writes fewer bytes than WebP at a PSNR at least WebP's (BENCHMARKS.md).
        public var speed: Int
        /// Embed the pixels' ICC profile. `true` by default.
        public var keepICCProfile: Bool
        /// Embed the EXIF block, orientation reset to 1. `false` by default (it may hold GPS).
        public var keepEXIF: Bool

        /// Options with the defaults above, or the values given.
        public init(
            quality: Int = 80, lossless: Bool = false, speed: Int = 8, keepICCProfile: Bool = true,
            keepEXIF: Bool = false
        ) {
            self.quality = quality
            self.lossless = lossless
            self.speed = speed
            self.keepICCProfile = keepICCProfile
            self.keepEXIF = keepEXIF
        }
    }

    /// How this encoder writes.
    public var options: Options

    /// An encoder with `options` (quality 80, speed 8 by default).
    public init(options: Options = Options()) {
        self.options = options
    }

    public var format: ImageFormat { .avif }

    /// libavif and aom with their versions (``library()``), or `libavif (not available: …)` when it cannot be loaded.
    public var library: String {
        do { return try Self.library() } catch { return "libavif (not available: \(error.reason))" }
    }

    /// Lossy takes YUV 4:2:0 as it is; lossless takes the decoder's own pixels.
    public var preferredPixels: PixelFormatRequest { options.lossless ? .native : .memoryOptimized }

    /// The AV1 quantizer (0 best – 63 worst) a quality maps to: linear between the points (100, 0), (90, 14),
    /// (80, 21), (70, 28), (50, 34) and (1, 63), measured as the quantizers whose PSNR matches JPEG's at those
    /// qualities on photographs reduced to thumbnails (the table is in docs/OUTPUT.md).
    public static func quantizer(forQuality quality: Int) -> Int {
        let points = [(1, 63), (50, 34), (70, 28), (80, 21), (90, 14), (100, 0)]
        let q = min(100, max(1, quality))
        for (low, high) in zip(points, points.dropFirst()) where q <= high.0 {
            let span = Double(high.0 - low.0)
            let t = Double(q - low.0) / span
            return Int((Double(low.1) + t * Double(high.1 - low.1)).rounded())
        }
        return 0
    }

    /// The library and AV1 encoder that write, with their versions (`libavif 0.11.1, aom v3.6.0`); loads
    /// libavif. Fails with `.unsupportedFeature` when libavif or its aom encoder is missing.
    public static func library() throws(ImageError) -> String {
        try loaded()
        var versions = [CChar](repeating: 0, count: 256)
        shrink_avif_codec_versions(&versions)
        // "dav1d [dec]:1.0.0, aom [enc/dec]:v3.6.0, …": the aom entry's version.
        let aom = String(cBuffer: versions).split(
            separator: ","
        ).map { $0.drop { $0 == " " } }
            .first { $0.hasPrefix("aom") }.flatMap { $0.split(separator: ":").last }
        return "libavif \(String(cString: shrink_avif_version())), aom \(aom.map(String.init) ?? "(version unknown)")"
    }

    /// Encodes `image`. Fails with `.invalidArgument` for settings out of range or an image over 65536 pixels on a
    /// side, `.unsupportedFeature` when libavif or its aom encoder is missing, `.outOfMemory` when libavif cannot
    /// allocate.
    public func encode(_ image: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(options.quality) else {
            throw ImageError(.invalidArgument, "AVIF quality must be 1-100, not \(options.quality)")
        }
        guard (0...9).contains(options.speed) else {
            throw ImageError(.invalidArgument, "AVIF speed must be 0-9, not \(options.speed)")
        }
        guard image.size.width <= 65536, image.size.height <= 65536 else {
            throw ImageError(.invalidArgument, "AVIF images are at most 65536 pixels on a side, not \(image.size)")
        }
        try Self.loaded()
        let pixels = Self.encodable(image, lossless: options.lossless)
        let avif = try AVIFImage(pixels, lossless: options.lossless)
        defer { shrink_avif_image_destroy(avif.image) }
        if options.keepICCProfile, let icc = metadata.iccProfile, !icc.isEmpty {
            icc.withUnsafeBufferPointer { shrink_avif_image_set_profile_icc(avif.image, $0.baseAddress, $0.count) }
        }
        if options.keepEXIF, let exif = metadata.exif, !exif.isEmpty {
            exif.withUnsafeBufferPointer { shrink_avif_image_set_metadata_exif(avif.image, $0.baseAddress, $0.count) }
        }
        return try pixels.bytes.withUnsafeBufferPointer { bytes throws(ImageError) in
            try avif.attach(bytes, of: pixels)
            return try write(avif.image)
        }
    }

    /// `image` in a format ``AVIFImage`` takes: yuv420 (lossy), gray8, rgb8, rgba8 and rgba16 as they are;
    /// the others converted to the nearest of them.
    static func encodable(_ image: PixelBuffer, lossless: Bool) -> PixelBuffer {
        switch image.format {
        case .yuv420 where !lossless: image
        case .gray8, .rgb8, .rgba8, .rgba16: image
        case _ where image.format.hasAlpha: PixelConverter.convert(image, to: .rgba8)
        default: PixelConverter.convert(image, to: .rgb8)
        }
    }

    /// The file for `image` at these options, through a fresh encoder (aom, one thread).
    private func write(_ image: UnsafeMutablePointer<avifImage>) throws(ImageError) -> [UInt8] {
        guard let encoder = shrink_avif_encoder_create() else {
            throw ImageError(.outOfMemory, "libavif could not create an encoder")
        }
        defer { shrink_avif_encoder_destroy(encoder) }
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(options.speed)
        let quantizer = Int32(options.lossless ? 0 : Self.quantizer(forQuality: options.quality))
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        var output = avifRWData()
        defer { shrink_avif_rw_data_free(&output) }
        let result = shrink_avif_encoder_write(encoder, image, &output)
        guard result == AVIF_RESULT_OK, let data = output.data else {
            throw Self.failure(result, encoder: encoder)
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }

    /// libavif loaded with an aom encoder, or why not.
    static func loaded() throws(ImageError) {
        guard shrink_avif_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "writing AVIF needs libavif", debian: "libavif15", reason: shrink_avif_load_error())
        }
        guard shrink_avif_codec_name(AVIF_CODEC_CHOICE_AOM, avifCodecFlags(AVIF_CODEC_FLAG_CAN_ENCODE.rawValue)) != nil
        else {
            throw ImageError(.unsupportedFeature, "this libavif was built without the aom encoder Shrink writes with")
        }
    }

    /// An ``ImageError`` for libavif's `result`, with the encoder's own diagnostic when it left one.
    static func failure(_ result: avifResult, encoder: UnsafeMutablePointer<avifEncoder>?) -> ImageError {
        var detail = String(cString: shrink_avif_result_to_string(result))
        if let encoder {
            let diagnostic = withUnsafeBytes(of: encoder.pointee.diag.error) { raw in
                String(cBytes: raw)
            }
            if !diagnostic.isEmpty { detail += ": " + diagnostic }
        }
        return ImageError(
            result == AVIF_RESULT_OUT_OF_MEMORY ? .outOfMemory : .invalidArgument,
            "libavif could not encode the image (\(detail))")
    }
}

extension ImageEncoding where Self == AVIFEncoder {
    /// An AVIF encoder: `image.write(to: path, as: .avif(.init(quality: 70)))`.
    public static func avif(_ options: AVIFEncoder.Options = AVIFEncoder.Options()) -> AVIFEncoder {
        AVIFEncoder(options: options)
    }
}
