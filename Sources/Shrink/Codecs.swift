// The codec registry: adding a codec is its import here, one line in the list, and its target in Package.swift.
// Encoders are re-exported so `import Shrink` is enough to name them.
import ShrinkCore
@_exported import struct ShrinkJPEG.JPEGEncoder
@_exported import struct ShrinkPNG.PNGEncoder
import ShrinkJPEG
import ShrinkPNG

extension CodecRegistry {
    /// Every codec Shrink ships, in the order files are sniffed.
    public static let standard = CodecRegistry([
        .jpeg,
        .png,
    ])
}
