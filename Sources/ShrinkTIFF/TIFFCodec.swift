import ShrinkCore

extension Codec {
    /// TIFF through libtiff (loaded on first use): strips and tiles streamed a band at a time, every photometric
    /// interpretation and compression libtiff reads, a pyramid's reduced levels used for thumbnails.
    package static let tiff = Codec(
        format: .tiff,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.pyramidLevels], rowFormats: [.gray8, .rgb8, .rgba8], maxBitsPerComponent: 16, alpha: true,
            metadata: [.icc]),
        sniff: { bytes in
            // "II" 42 or "MM" 42 (classic TIFF), 43 (BigTIFF).
            guard bytes.count >= 8 else { return false }
            let little = bytes[0] == 0x49 && bytes[1] == 0x49 && (bytes[2] == 42 || bytes[2] == 43) && bytes[3] == 0
            let big = bytes[0] == 0x4D && bytes[1] == 0x4D && bytes[2] == 0 && (bytes[3] == 42 || bytes[3] == 43)
            return little || big
        },
        open: { bytes, name, limits throws(ImageError) in try TIFFDecoder(bytes: bytes, path: name, limits: limits) })
}
