import ShrinkCore

extension Codec {
    /// WebP through libwebp: lossy frames scaled while decoding (to planes or rows), lossless held whole,
    /// animations' first frame; EXIF orientation and ICC read; lossy and lossless encoding.
    package static let webp = Codec(
        format: .webp,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.anyFactor], yieldsPlanes: true, rowFormats: [.rgb8, .rgba8], alpha: true, animation: true,
            metadata: [.exif, .icc, .xmp]),
        sniff: { bytes in
            bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8)
        },
        open: { bytes, name, limits throws(ImageError) in try WebPDecoder(bytes: bytes, path: name, limits: limits) },
        writer: .webp)
}

extension WebPEncoder: AnimationEncoding {
    /// An animated WebP with these options (``WebPAnimationWriter``).
    public func startAnimation(size: PixelSize, frames: Int, loopCount: Int, metadata: ImageMetadata)
        throws(ImageError) -> any AnimationWriting
    {
        try WebPAnimationWriter(
            size: size, loopCount: loopCount, options: options, metadata: metadata, expectedFrames: frames)
    }
}

extension ImageEncoding where Self == WebPEncoder {
    /// A WebP encoder: `image.write(to: path, as: .webp(.init(quality: 75)))`.
    public static func webp(_ options: WebPEncoder.Options = WebPEncoder.Options()) -> WebPEncoder {
        WebPEncoder(options: options)
    }
}
