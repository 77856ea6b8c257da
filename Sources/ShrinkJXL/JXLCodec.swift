import ShrinkCore

extension Codec {
    /// JPEG XL through libjxl (loaded on first use): the first frame decoded whole, its rows summed to the size asked
    /// for; written lossy or lossless (``JXLEncoder``).
    package static let jxl = Codec(
        format: .jxl,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.anyFactor], rowFormats: [.gray8, .rgb8, .rgba8, .rgba16], maxBitsPerComponent: 16,
            alpha: true, metadata: [.icc]),
        sniff: { bytes in
            // A bare codestream (FF 0A), or the container's signature box.
            let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
            if bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0x0A { return true }
            return bytes.count >= 12 && zip(bytes.prefix(12), container).allSatisfy { $0 == $1 }
        },
        open: { bytes, name, limits throws(ImageError) in try JXLDecoder(bytes: bytes, path: name, limits: limits) },
        writer: .jxl)
}
