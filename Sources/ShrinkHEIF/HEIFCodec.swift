import ShrinkCore

extension Codec {
    /// HEIC through Shrink's container parser and libde265: HEVC images and grids, a row of tiles at a time.
    package static let heif = Codec(
        format: .heif,
        capabilities: CodecCapabilities(
            yieldsPlanes: true, rowFormats: [.gray8, .rgb8, .rgba8, .rgba16], maxBitsPerComponent: 12,
            alpha: true, regions: true, metadata: [.exif, .icc]),
        sniff: { bytes in
            guard let major = HEIFBrands.major(bytes) else { return false }
            // mif3: low-overhead HEIF (a 'mini' box), opened to be refused as an unsupported feature by name.
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif3"].contains(major) { return true }
            // mif1/msf1 files name their codec among the compatible brands (AVIF ones say avif).
            guard major == "mif1" || major == "msf1" else { return false }
            let brands = HEIFBrands.compatible(bytes)
            return brands.contains("heic") || brands.contains("heix")
                || (!brands.contains("avif") && !brands.contains("avis"))
        },
        open: { bytes, name, limits throws(ImageError) in
            try HEIFOpening.decoder(bytes: bytes, path: name, limits: limits, format: .heif)
        })
}
