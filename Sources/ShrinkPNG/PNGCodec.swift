import CShrinkSPNG
import ShrinkCore

extension PNGEncoder {
    public var format: ImageFormat { .png }
    /// `libspng` and its version (vendored).
    public var library: String { "libspng " + String(cString: spng_version_string()) }
    /// Lossless: the decoder's own pixels, unconverted.
    public var preferredPixels: PixelFormatRequest { .native }
}

extension Codec {
    /// PNG through libspng: rows streamed, Adam7 passes summed into a reduced grid, 16-bit kept.
    package static let png = Codec(
        format: .png,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.anyFactor], rowFormats: [.gray8, .rgb8, .rgba8, .rgba16], maxBitsPerComponent: 16,
            alpha: true,
            metadata: [.exif, .icc]),
        sniff: { bytes in
            let magic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            return bytes.count >= 8 && zip(bytes.prefix(8), magic).allSatisfy { $0 == $1 }
        },
        open: { bytes, name, limits throws(ImageError) in try PNGDecoder(bytes: bytes, path: name, limits: limits) },
        writer: .png)
}

extension ImageEncoding where Self == PNGEncoder {
    /// A PNG encoder: `image.write(to: path, as: .png(.init(compressionLevel: 9)))`.
    public static func png(_ options: PNGEncoder.Options = PNGEncoder.Options()) -> PNGEncoder {
        PNGEncoder(options: options)
    }
}
