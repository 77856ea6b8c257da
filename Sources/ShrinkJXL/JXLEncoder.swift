import CShrinkJXL
import ShrinkCore

/// Writes JPEG XL with libjxl (one thread): lossy at a quality on JPEG's scale (VarDCT in XYB, mapped to libjxl's
/// butteraugli distance as cjxl maps it), or lossless (modular, the samples in their own colour space). Gray, RGB and
/// their alpha as they are, 16-bit pixels at 16 bits; YUV results are converted to RGB first. The colour is tagged
/// as the kept ICC profile, else as sRGB.
///
/// libjxl is loaded on the first encode. Memory: the RGB pixels (a copy only when the result was YUV or another
/// format), libjxl's encoder state, which grows with the pixel count, and the output.
public struct JXLEncoder: ImageEncoding {
    /// Encoder settings.
    public struct Options: Sendable {
        /// Quality 1–100 on JPEG's scale (``JXLEncoder/distance(forQuality:)`` gives the butteraugli distance it maps
        /// to: 90 is distance 1, visually lossless). 80 by default.
        public var quality: Int
        /// Lossless: modular, every sample back exactly. `false` by default.
        public var lossless: Bool
        /// libjxl's effort, 1 (fastest) – 9 (smallest). 3 by default: thumbnails are made on request, and effort 3
        /// writes them in about a quarter of libjxl's default effort's (7) CPU, in somewhat larger files
        /// (BENCHMARKS.md, "Figures behind the code").
        public var effort: Int
        /// Embed the pixels' ICC profile. `true` by default.
        public var keepICCProfile: Bool

        /// Options with the defaults above, or the values given.
        public init(quality: Int = 80, lossless: Bool = false, effort: Int = 3, keepICCProfile: Bool = true) {
            self.quality = quality
            self.lossless = lossless
            self.effort = effort
            self.keepICCProfile = keepICCProfile
        }
    }

    /// How this encoder writes.
    public var options: Options

    /// An encoder with `options` (quality 80, effort 3 by default).
    public init(options: Options = Options()) {
        self.options = options
    }

    public var format: ImageFormat { .jxl }

    /// `libjxl` and its version, loading libjxl; why not when it cannot be loaded.
    public var library: String {
        do {
            try JXLLibrary.load(for: "writing JPEG XL")
            return JXLDecoder.library
        } catch { return "libjxl (not available: \(error.reason))" }
    }

    /// libjxl takes interleaved samples: the decoder's own pixels, never YUV planes.
    public var preferredPixels: PixelFormatRequest { .native }

    /// libjxl's butteraugli distance for a quality on JPEG's scale, as cjxl maps `-q` from 30 up: 0.1 + (100 − q) × 0.09
    /// (90 is 1.0, visually lossless; 30 is 6.4); below 30, straight on to libjxl's largest distance, 25, at 1 (cjxl's
    /// curve grows faster there and is cut at 25).
    public static func distance(forQuality quality: Int) -> Float {
        let q = Float(min(100, max(1, quality)))
        return q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + (30 - q) * (25 - 6.4) / 29
    }

    /// Encodes `image`. Fails with `.invalidArgument` for settings out of range, `.unsupportedFeature` when libjxl is
    /// missing, `.outOfMemory` when libjxl cannot allocate.
    public func encode(_ image: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(options.quality) else {
            throw ImageError(.invalidArgument, "JPEG XL quality must be 1-100, not \(options.quality)")
        }
        guard (1...9).contains(options.effort) else {
            throw ImageError(.invalidArgument, "JPEG XL effort must be 1-9, not \(options.effort)")
        }
        try JXLLibrary.load(for: "writing JPEG XL")
        let pixels = Self.encodable(image)
        let icc = options.keepICCProfile ? metadata.iccProfile ?? [] : []
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = pixels.bytes.withUnsafeBytes { bytes in
            icc.withUnsafeBytes { profile in
                cshrink_jxl_encode(
                    bytes.baseAddress, UInt32(pixels.size.width), UInt32(pixels.size.height),
                    UInt32(pixels.format.channels), pixels.format == .rgba16 ? 1 : 0,
                    Self.distance(forQuality: options.quality), options.lossless ? 1 : 0, Int32(options.effort),
                    profile.baseAddress, profile.count, &out, &count, &message, message.count)
            }
        }
        guard ok == 1, let out else {
            let text = String(cBuffer: message)
            throw ImageError(
                text.contains("out of memory") ? .outOfMemory : .invalidArgument, "JPEG XL encoding failed", cause: text
            )
        }
        defer { cshrink_jxl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    /// `image` in a format libjxl takes: gray8, rgb8, rgba8 and rgba16 as they are; the others converted to the
    /// nearest of them.
    static func encodable(_ image: PixelBuffer) -> PixelBuffer {
        switch image.format {
        case .gray8, .rgb8, .rgba8, .rgba16: image
        case _ where image.format.hasAlpha: PixelConverter.convert(image, to: .rgba8)
        default: PixelConverter.convert(image, to: .rgb8)
        }
    }
}
