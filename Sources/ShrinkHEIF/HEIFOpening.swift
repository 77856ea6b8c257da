import ShrinkCore

/// Chooses the decoder for a HEIC or AVIF file from its boxes: the tile path (``HEIFDecoder``) for coded
/// images and grids, libheif (``LibheifDecoder``) for derived images the tile path does not decode.
enum HEIFOpening {
    /// The decoder of `bytes`' primary image, `format` as the codec that sniffed it says. Parses the container
    /// once; fails as the chosen decoder does.
    static func decoder(bytes: ImageBytes, path: String, limits: ImageLimits, format: ImageFormat) throws(ImageError)
        -> any ImageDecoding
    {
        let container = try HEIFContainer(bytes: bytes.bytes, path: path)
        if let type = container.items[container.primaryID]?.type, LibheifDecoder.derivedTypes.contains(type) {
            return try LibheifDecoder(bytes: bytes, path: path, container: container, limits: limits, format: format)
        }
        return try HEIFDecoder(bytes: bytes, path: path, container: container, limits: limits, format: format)
    }
}
