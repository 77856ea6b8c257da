import Shrink

// farbfeld, registered from this test target through the codec seam's public API alone: the suite's proof that
// a codec needs nothing of Shrink's own modules beyond `import Shrink`.

extension ImageFormat {
    /// farbfeld: a magic, a big-endian 32-bit width and height, then 16-bit big-endian RGBA samples.
    static let farbfeld = ImageFormat(name: "farbfeld", mimeType: "image/x-farbfeld", fileExtensions: ["ff"])
}

extension Codec {
    /// farbfeld read as 16-bit rows and written from any pixels.
    static let farbfeld = Codec(
        format: .farbfeld,
        capabilities: CodecCapabilities(rowFormats: [.rgba16], maxBitsPerComponent: 16, alpha: true),
        sniff: { $0.count >= 16 && $0.prefix(8).elementsEqual(FarbfeldDecoder.magic) },
        open: { bytes, name, limits throws(ImageError) in
            try FarbfeldDecoder(bytes: bytes, name: name, limits: limits)
        },
        writer: ImageWriter(
            accepts: [.alpha, .sixteenBit], reads: [],
            make: { _ in FarbfeldEncoder() }, makeDefault: { FarbfeldEncoder() },
            predictedBytes: { size, _ in 2 * size.pixelCount * 8 + 16 }))
}
