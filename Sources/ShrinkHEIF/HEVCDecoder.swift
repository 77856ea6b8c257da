import CShrinkDE265
import ShrinkCore

/// A libde265 decoder reused across the tiles of one image: each ``decode(parameterSets:units:)`` pushes the
/// parameter sets and one picture's NAL units, decodes it and copies its planes out, then resets the decoder
/// for the next tile. One thread; libde265 holds one picture of the tile's size while it decodes.
final class HEVCDecoder {
    private let context: UnsafeMutableRawPointer
    /// `libde265` and its version.
    static let name = "libde265 " + String(cString: shrink_de265_get_version())
    private let path: String

    /// Fails with `.unsupportedFeature` when libde265 cannot be loaded (it is loaded on first use, not linked).
    init(path: String) throws(ImageError) {
        guard shrink_de265_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(path): HEVC-coded images need libde265", debian: "libde265-0", reason: shrink_de265_load_error())
        }
        guard let context = shrink_de265_new_decoder() else {
            throw ImageError(.outOfMemory, "\(path): cannot create an HEVC decoder")
        }
        self.context = context
        self.path = path
        shrink_de265_set_verbosity(0)
    }

    deinit { shrink_de265_free_decoder(context) }

    /// Decodes one picture from `parameterSets` then `units` (NAL units without length prefixes). Fails with
    /// `.corruptData` when libde265 reports an error or yields no picture.
    func decode(
        parameterSets: [UnsafeRawBufferPointer], units: [UnsafeRawBufferPointer],
        depth: HEIFSampleDepth = .narrowed(fullRange: nil)
    ) throws(ImageError) -> HEIFPicture {
        defer { shrink_de265_reset(context) }
        for unit in parameterSets + units where unit.count > 0 {
            let status = shrink_de265_push_NAL(context, unit.baseAddress, Int32(clamping: unit.count), 0, nil)
            guard shrink_de265_isOK(status) != 0 else { throw error(status, "reading the coded data") }
        }
        _ = shrink_de265_flush_data(context)
        var more: Int32 = 1
        var steps = 0
        while more != 0 {
            steps += 1
            guard steps < 1_000_000 else { throw ImageError(.corruptData, "\(path): HEVC decoding does not end") }
            let status = shrink_de265_decode(context, &more)
            if status != DE265_OK && status != DE265_ERROR_WAITING_FOR_INPUT_DATA && shrink_de265_isOK(status) == 0 {
                throw error(status, "decoding a tile")
            }
            if let image = shrink_de265_get_next_picture(context) { return copy(image, depth: depth) }
            if status == DE265_ERROR_WAITING_FOR_INPUT_DATA { break }
        }
        if let image = shrink_de265_get_next_picture(context) { return copy(image, depth: depth) }
        throw ImageError(.corruptData, "\(path): the HEVC data holds no complete picture")
    }

    private func copy(_ image: OpaquePointer, depth: HEIFSampleDepth) -> HEIFPicture {
        let planes = shrink_de265_get_chroma_format(image) == de265_chroma_mono ? 1 : 3
        var sizes: [PixelSize] = [], bases: [UnsafeRawPointer] = [], strides: [Int] = []
        for c in 0..<planes {
            let w = Int(shrink_de265_get_image_width(image, Int32(c))),
                h = Int(shrink_de265_get_image_height(image, Int32(c)))
            var stride: Int32 = 0
            guard w > 0, h > 0, let base = shrink_de265_get_image_plane(image, Int32(c), &stride) else { continue }
            sizes.append(PixelSize(width: w, height: h))
            bases.append(UnsafeRawPointer(base))
            strides.append(Int(stride))
        }
        return HEIFPicture(
            copying: bases, strides: strides, sizes: sizes, bitDepth: Int(shrink_de265_get_bits_per_pixel(image, 0)),
            depth: depth, fullRange: shrink_de265_get_image_full_range_flag(image) != 0,
            matrix: Int(shrink_de265_get_image_matrix_coefficients(image)))
    }

    private func error(_ status: de265_error, _ during: String) -> ImageError {
        let text = shrink_de265_get_error_text(status).map { String(cString: $0) } ?? "error \(status.rawValue)"
        return ImageError(.corruptData, "\(path): HEVC \(text) (\(during))")
    }
}
