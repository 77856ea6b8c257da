import ShrinkCore

extension ImageFormat {
    /// Camera RAW (DNG, CR2, CR3, CRW, NEF, ARW, ORF, RAF, RW2, PEF, SRW): read through the previews the camera
    /// embedded.
    package static let raw = ImageFormat(
        name: "raw", mimeType: "image/x-dcraw",
        fileExtensions: [
            "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "raf", "rw2", "pef", "srw",
        ])
}

extension Codec {
    /// Camera RAW files through their embedded previews (the smallest that covers a thumbnail, decoded by the JPEG or
    /// TIFF codec); sensor data is not developed. Sniffed before TIFF: a DNG, NEF, ARW or PEF is a TIFF file too.
    /// Thumbnails are written as JPEG when no format is named.
    package static let raw = Codec(
        format: .raw,
        capabilities: CodecCapabilities(
            shrinkOnLoad: [.embeddedThumbnail, .dctDenominators([2, 4, 8])], yieldsPlanes: true,
            rowFormats: [.gray8, .rgb8], regions: true, metadata: [.icc]),
        sniff: { bytes in RAWKind(sniffing: bytes) != nil },
        open: { bytes, name, limits throws(ImageError) in try RAWDecoder(bytes: bytes, path: name, limits: limits) },
        thumbnailFormat: .jpeg)
}
