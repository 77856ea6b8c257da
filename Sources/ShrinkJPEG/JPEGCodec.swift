import ShrinkCore

extension JPEGEncoder: StreamingImageEncoding {
    public var format: ImageFormat { .jpeg }

    /// `libjpeg-turbo`.
    public var library: String { "libjpeg-turbo" }

    /// A ``JPEGStreamWriter`` with these options' quality and subsampling.
    package func startWriting(to path: String, size: PixelSize, format: PixelFormat) throws(ImageError)
        -> any RowEncoding
    {
        try JPEGStreamWriter(
            path: path, size: size, format: format, quality: options.quality, chroma444: options.chroma444)
    }
    /// A 4:2:0 JPEG takes YUV planes as they are (no RGB image, no colour conversion either way); 4:4:4
    /// takes the decoder's own pixels.
    public var preferredPixels: PixelFormatRequest { options.chroma444 ? .native : .memoryOptimized }
}

extension Codec {
    /// JPEG through libjpeg-turbo (DCT scaling, planes, lossless transforms) and Shrink's DC-first decoder.
    package static let jpeg = Codec(
        format: .jpeg,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.dctDenominators([2, 4, 8]), .embeddedThumbnail], yieldsPlanes: true,
            rowFormats: [.gray8, .rgb8],
            regions: true, losslessTransforms: true, metadata: [.exif, .icc]),
        sniff: { bytes in bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF },
        open: { bytes, name, limits throws(ImageError) in try JPEGDecoder(bytes: bytes, path: name, limits: limits) },
        writer: .jpeg)
}

extension ImageEncoding where Self == JPEGEncoder {
    /// A JPEG encoder: `image.write(to: path, as: .jpeg(.init(quality: 90)))`.
    public static func jpeg(_ options: JPEGEncoder.Options = JPEGEncoder.Options()) -> JPEGEncoder {
        JPEGEncoder(options: options)
    }
}
