/// An encoder: pixels in, a file's bytes out.
public protocol ImageEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }
    /// The pixel format request that serves this encoder best: the library's one policy for what a result
    /// bound for this output is decoded as (YUV 4:2:0 for a 4:2:0 JPEG or a lossy WebP, the decoder's own
    /// pixels for lossless outputs).
    var preferredPixels: PixelFormatRequest { get }
    /// Encodes `pixels`, keeping the parts of `metadata` the encoder's options keep.
    func encode(_ pixels: PixelBuffer, metadata: ImageMetadata) throws(ImageError) -> [UInt8]
    /// The library that writes, with its version when known (`libwebp 1.2.4`; `libavif 0.11.1, aom v3.6.0`): what
    /// telemetry and `shrink formats` name. The type's name unless the encoder says otherwise.
    var library: String { get }
}

extension ImageEncoding {
    /// The encoder type's name (`PPMEncoder`).
    public var library: String { String(describing: Self.self) }
}
