// The codec registry: adding a codec is its import here, one line in the list, and its target in Package.swift.
// This is the one file of the facade that names codecs.
// Encoders are re-exported so `import Shrink` is enough to name them.
import ShrinkCore
@_exported import struct ShrinkJPEG.JPEGEncoder
@_exported import struct ShrinkPNG.PNGEncoder
@_exported import struct ShrinkWebP.WebPEncoder
import ShrinkGIF
import ShrinkHEIF
import ShrinkJPEG
import ShrinkPNG
import ShrinkWebP

extension CodecRegistry {
    /// Every codec Shrink ships, in the order files are sniffed.
    public static let standard = CodecRegistry([
        .jpeg,
        .png,
        .webp,
        .gif,
        .heif,
        .avif,
    ])
}

extension CodecRegistry {
    /// How the pipeline's disk cache stores a result: JPEG at `quality` for opaque 8-bit pixels (4:2:0 when
    /// the pixels are subsampled or gray), PNG (fast compression) when there is alpha or 16-bit precision.
    static func cacheEncoder(for pixels: PixelBuffer, quality: Int) -> any ImageEncoding {
        if pixels.format.hasAlpha || pixels.format == .rgba16 {
            return PNGEncoder(options: PNGEncoder.Options(compressionLevel: 3))
        }
        let subsampled = pixels.format == .yuv420 || pixels.format == .nv12 || pixels.format == .gray8
        return JPEGEncoder(options: JPEGEncoder.Options(quality: quality, chroma444: !subsampled))
    }
}

extension CodecRegistry {
    /// The encoder `settings` describe. Only formats in ``checkWritable(_:)`` reach here.
    static func encoder(for settings: OutputSettings) -> any ImageEncoding {
        let bg = settings.background
        switch settings.format {
        case .png:
            return PNGEncoder(options: PNGEncoder.Options(keepICCProfile: settings.keepICCProfile))
        case .webp:
            return WebPEncoder(
                options: WebPEncoder.Options(quality: settings.quality, keepICCProfile: settings.keepICCProfile))
        default:
            var options = JPEGEncoder.Options(
                quality: settings.quality, progressive: settings.progressive,
                optimizeHuffmanTables: settings.optimizeCoding)
            options.keepICCProfile = settings.keepICCProfile
            options.background = (bg.red, bg.green, bg.blue)
            return JPEGEncoder(options: options)
        }
    }

    /// Fails with `.unsupportedFormat` unless Shrink writes `settings.format` (JPEG, PNG or WebP).
    static func checkWritable(_ settings: OutputSettings) throws(ImageError) {
        guard [ImageFormat.jpeg, .png, .webp].contains(settings.format) else {
            throw ImageError(
                .unsupportedFormat,
                "Shrink cannot write \(settings.format.name.uppercased()) (it writes JPEG, PNG and WebP)")
        }
    }

    /// The pixel format a result bound for `settings` is decoded as (``ImageEncoding/preferredPixels``).
    static func preferredPixels(for settings: OutputSettings) -> PixelFormatRequest {
        encoder(for: settings).preferredPixels
    }

    /// Bytes an encode of a `size` result may hold beyond the pixels: a converted copy of the pixels (RGBA
    /// for PNG and WebP, RGB when JPEG flattens alpha), the output (bounded by the raw size for PNG, a
    /// quarter of it for lossy formats at any quality), 1 MiB of encoder state, and for a progressive JPEG or
    /// optimised Huffman tables libjpeg's buffer of every coefficient (2 bytes a sample, 4:2:0).
    static func predictedEncodeBytes(for size: PixelSize, settings: OutputSettings) -> Int {
        let pixels = size.pixelCount
        let output = settings.format == .png ? pixels * 4 : pixels
        let coefficients =
            settings.format == .jpeg && (settings.progressive || settings.optimizeCoding) ? pixels * 3 : 0
        return pixels * 4 + output + coefficients + (1 << 20)
    }
}
