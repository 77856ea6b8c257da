import ShrinkCore

extension Codec {
    /// ICO and CUR: each entry a PNG (the PNG codec) or a BMP with an AND mask (the BMP codec); a thumbnail decodes
    /// the smallest entry that covers it. Thumbnails are written as PNG when no format is named (icons have alpha).
    package static let ico = Codec(
        format: .ico,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.pyramidLevels], rowFormats: [.gray8, .rgb8, .rgba8, .rgba16], maxBitsPerComponent: 16,
            alpha: true, metadata: [.icc]),
        sniff: { bytes in
            // Reserved 0, type 1 (icon) or 2 (cursor), at least one entry whose reserved byte is 0.
            bytes.count >= 22 && bytes[0] == 0 && bytes[1] == 0 && (bytes[2] == 1 || bytes[2] == 2) && bytes[3] == 0
                && (bytes[4] != 0 || bytes[5] != 0) && bytes[9] == 0
        },
        open: { bytes, name, limits throws(ImageError) in try ICODecoder(bytes: bytes, path: name, limits: limits) },
        thumbnailFormat: .png)
}
