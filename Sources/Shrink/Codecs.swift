// The codec registry: adding a codec is its import here, one line in the list, and its target in Package.swift.
// This is the one file of the facade that names codecs (and the disk cache's choice of JPEG or PNG).
// Encoders are re-exported so `import Shrink` is enough to name them.
import ShrinkCore
@_exported import struct ShrinkJPEG.JPEGEncoder
@_exported import struct ShrinkPNG.PNGEncoder
@_exported import struct ShrinkWebP.WebPEncoder
@_exported import struct ShrinkHEIF.AVIFEncoder
@_exported import struct ShrinkJXL.JXLEncoder
import ShrinkBMP
import ShrinkGIF
import ShrinkHEIF
import ShrinkICO
import ShrinkJPEG
import ShrinkJXL
import ShrinkPNG
import ShrinkRAW
import ShrinkTIFF
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
        .bmp,
        .ico,
        .raw,
        .tiff,
        .jxl,
    ])
}

extension CodecRegistry {
    /// How the pipeline's disk cache stores a result: JPEG at `quality` for opaque 8-bit pixels (4:2:0 when
    /// the pixels are subsampled or gray), PNG (fast compression) when there is alpha or 16-bit precision.
    static func cacheSettings(for pixels: PixelBuffer, quality: Int) -> OutputSettings {
        if pixels.format.hasAlpha || pixels.format == .rgba16 {
            var png = OutputSettings(format: .png)
            png.compressionLevel = 3
            return png
        }
        var jpeg = OutputSettings(format: .jpeg, quality: quality)
        jpeg.chroma444 = !(pixels.format == .yuv420 || pixels.format == .nv12 || pixels.format == .gray8)
        return jpeg
    }
}
