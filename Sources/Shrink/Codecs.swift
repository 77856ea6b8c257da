// The codec registry: adding a codec is its import here, one line in the list, and its target in Package.swift.
// Encoders are re-exported so `import Shrink` is enough to name them.
import ShrinkCore
@_exported import struct ShrinkJPEG.JPEGEncoder
@_exported import struct ShrinkPNG.PNGEncoder
@_exported import struct ShrinkWebP.WebPEncoder
import ShrinkGIF
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
    ])
}
