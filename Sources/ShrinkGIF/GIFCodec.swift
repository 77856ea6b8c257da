import ShrinkCore

extension Codec {
    /// GIF through Shrink's LZW decoder: the first frame streamed onto its canvas (interlaced frames buffered as
    /// indices), frames and the loop count counted by a walk over the blocks, the ICC profile extension read;
    /// animations frame by frame; written with cgif and Shrink's quantiser (``GIFEncoder``), stills and animations.
    package static let gif = Codec(
        format: .gif,
        capabilities: CodecCapabilities(rowFormats: [.rgb8, .rgba8], alpha: true, animation: true, metadata: [.icc]),
        sniff: { bytes in
            bytes.count >= 4 && bytes[0] == 0x47 && bytes[1] == 0x49 && bytes[2] == 0x46 && bytes[3] == 0x38
        },
        open: { bytes, name, limits throws(ImageError) in try GIFDecoder(bytes: bytes, path: name, limits: limits) },
        writer: .gif)
}
