import ShrinkCore

/// The decoder of one image's tiles, made for its coding and reused for every tile: libde265 for HEVC, dav1d
/// for AV1.
enum HEIFTileDecoder {
    case hevc(HEVCDecoder)
    case av1(AV1Decoder)

    /// A decoder for `image`'s tiles; dav1d refuses frames above the tile's pixel count.
    init(_ image: HEIFImage, path: String) throws(ImageError) {
        switch image.coding {
        case .hevc: self = .hevc(try HEVCDecoder(path: path))
        case .av1: self = .av1(try AV1Decoder(maxPixels: image.tileSize.pixelCount, path: path))
        }
    }

    /// One tile from its item's `data`, coded as `coding` (HEVC parameter sets are read from `file`), deeper
    /// samples kept or narrowed as `depth` says. Fails with `.corruptData` when the decoder reports an error or
    /// yields no picture.
    func decode(
        _ data: UnsafeRawBufferPointer, coding: HEIFCoding, file: UnsafeRawBufferPointer, depth: HEIFSampleDepth,
        path: String
    ) throws(ImageError) -> HEIFPicture {
        switch (self, coding) {
        case (.hevc(let decoder), .hevc(let config)):
            let parameterSets = config.parameterSets.map { UnsafeRawBufferPointer(rebasing: file[$0.range]) }
            let units = try config.nalUnits(in: data, path: path).map { UnsafeRawBufferPointer(rebasing: data[$0]) }
            return try decoder.decode(parameterSets: parameterSets, units: units, depth: depth)
        case (.av1(let decoder), .av1):
            return try decoder.decode(data, depth: depth)
        default:
            throw ImageError(.unsupportedFeature, "\(path): a grid of tiles in more than one codec")
        }
    }
}
