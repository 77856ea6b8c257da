import ShrinkCore

extension Codec {
    /// BMP, by Shrink's own reader: 1- to 32-bit, palettes, RLE4/RLE8, bit fields, top-down and bottom-up, OS/2 and
    /// Windows headers up to version 5 (its embedded ICC profile); rows streamed at full size. Thumbnails are
    /// written as PNG when no format is named (a BMP is lossless, and may have alpha).
    package static let bmp = Codec(
        format: .bmp,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [], rowFormats: [.gray8, .rgb8, .rgba8], maxBitsPerComponent: 8, alpha: true,
            metadata: [.icc]),
        sniff: { bytes in
            // "BM", then a plausible DIB header size (the decoder names one it does not know).
            guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D else { return false }
            let header = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
            return (12...1024).contains(header)
        },
        open: { bytes, name, limits throws(ImageError) in try BMPDecoder(bytes: bytes, path: name, limits: limits) },
        thumbnailFormat: .png)
}
