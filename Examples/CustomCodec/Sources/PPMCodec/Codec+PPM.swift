import Shrink

extension ImageFormat {
    /// Binary Portable Pixmap (Netpbm P6).
    public static let ppm = ImageFormat(name: "ppm", mimeType: "image/x-portable-pixmap", fileExtensions: ["ppm"])
}

extension Codec {
    /// Binary PPM, read and written by this package: registered with `CodecRegistry.standard.adding(.ppm)`.
    public static let ppm = Codec(
        format: .ppm,
        capabilities: CodecCapabilities(rowFormats: [.rgb8]),
        sniff: { PPMHeader.sniff($0) },
        open: { bytes, name, limits throws(ImageError) in try PPMDecoder(bytes: bytes, name: name, limits: limits) },
        writer: ImageWriter(
            accepts: [], reads: [],
            make: { _ in PPMEncoder() },
            makeDefault: { PPMEncoder() },
            // An rgb8 copy of the result (when it comes in another format) and the output.
            predictedBytes: { size, _ in 2 * size.pixelCount * 3 + 64 }))
}
