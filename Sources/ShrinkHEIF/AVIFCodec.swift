import ShrinkCore

extension Codec {
    /// AVIF through Shrink's container parser and dav1d: AV1 images and grids, a row of tiles at a time (the
    /// HEIC path with another tile decoder). Animated AVIF (`avis`) shows its primary image, the first frame. Written
    /// through libavif's aom encoder.
    package static let avif = Codec(
        format: .avif,
        capabilities: CodecCapabilities(
            yieldsPlanes: true, rowFormats: [.gray8, .rgb8, .rgba8, .rgba16], maxBitsPerComponent: 12,
            alpha: true, regions: true, metadata: [.exif, .icc]),
        sniff: { bytes in
            guard let major = HEIFBrands.major(bytes) else { return false }
            if major == "avif" || major == "avis" { return true }
            guard major == "mif1" || major == "msf1" else { return false }
            let brands = HEIFBrands.compatible(bytes)
            return brands.contains("avif") || brands.contains("avis")
        },
        open: { bytes, name, limits throws(ImageError) in
            try HEIFOpening.decoder(bytes: bytes, path: name, limits: limits, format: .avif)
        },
        writer: .avif,
        // A client that did not ask for AVIF may not decode it: unless a request names AVIF (or negotiates it), an AVIF
        // source's thumbnails are JPEG, as HEIC's are.
        thumbnailFormat: .jpeg)
}
