import CShrinkHeif
import ShrinkCore

/// libheif's view of a file: its context over our bytes (not copied) and the primary image's handle, for the
/// items the tile path does not decode (``LibheifDecoder``). Reading it parses the boxes only; decoding is
/// ``decode(alpha:decoder:path:)``. Costs libheif's parsed boxes (a few KiB) until released.
final class LibheifContext {
    private let context: OpaquePointer
    let handle: OpaquePointer

    /// Parses `bytes`, which must outlive this object. libheif refuses images wider or taller than `maxSide`.
    /// Fails with `.corruptData` naming `path` with libheif's message when the file does not parse, and with
    /// `.unsupportedFeature` when libheif cannot be loaded (it is loaded on first use, not linked).
    init(_ bytes: UnsafeRawBufferPointer, maxSide: Int, path: String) throws(ImageError) {
        guard shrink_heif_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(path): this image needs libheif", debian: "libheif1", reason: shrink_heif_load_error())
        }
        guard let context = shrink_heif_context_alloc() else {
            throw ImageError(.outOfMemory, "\(path): libheif context")
        }
        self.context = context
        shrink_heif_context_set_maximum_image_size_limit(context, Int32(clamping: maxSide))
        var handle: OpaquePointer?
        var error = shrink_heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
        if error.code == heif_error_Ok { error = shrink_heif_context_get_primary_image_handle(context, &handle) }
        guard error.code == heif_error_Ok, let handle else {
            shrink_heif_context_free(context)
            throw Self.imageError(error, path: path)
        }
        self.handle = handle
    }

    deinit {
        shrink_heif_image_handle_release(handle)
        shrink_heif_context_free(context)
    }

    /// The primary image as displayed (libheif applies `clap`, `irot` and `imir`).
    var size: PixelSize {
        PixelSize(
            width: Int(shrink_heif_image_handle_get_width(handle)),
            height: Int(shrink_heif_image_handle_get_height(handle)))
    }
    var hasAlpha: Bool { shrink_heif_image_handle_has_alpha_channel(handle) != 0 }
    /// The ICC profile libheif finds for the primary image (`colr` prof/rICC), or nil.
    var iccProfile: [UInt8]? {
        let type = shrink_heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let count = shrink_heif_image_handle_get_raw_color_profile_size(handle)
        guard count > 0, count <= 64 << 20 else { return nil }
        var profile = [UInt8](repeating: 0, count: count)
        let error = profile.withUnsafeMutableBytes {
            shrink_heif_image_handle_get_raw_color_profile(handle, $0.baseAddress)
        }
        return error.code == heif_error_Ok ? profile : nil
    }
    var bitDepth: Int { max(8, Int(shrink_heif_image_handle_get_luma_bits_per_pixel(handle))) }

    /// Decodes the primary image to interleaved 8-bit RGB (RGBA with `alpha`) with the decoder named
    /// `decoder` (libheif's id: `libde265` or `dav1d`; never left to libheif's choice, which could be aom).
    /// The caller releases the image with `shrink_heif_image_release`. Holds the coded image's YUV planes while it
    /// converts, then the RGB(A) image.
    func decode(alpha: Bool, decoder: String, path: String) throws(ImageError) -> OpaquePointer {
        guard let options = shrink_heif_decoding_options_alloc() else {
            throw ImageError(.outOfMemory, "\(path): libheif options")
        }
        defer { shrink_heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        let error = decoder.withCString { id in
            options.pointee.decoder_id = id
            return shrink_heif_decode_image(
                handle, &image, heif_colorspace_RGB,
                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options)
        }
        guard error.code == heif_error_Ok, let image else {
            if let image { shrink_heif_image_release(image) }
            throw Self.imageError(error, path: path)
        }
        return image
    }

    /// libheif's error as ours: limits as `.limitExceeded`, unsupported features as `.unsupportedFeature`, a
    /// file that ends early as `.truncated`, anything else as `.corruptData`; the message is libheif's.
    static func imageError(_ error: heif_error, path: String) -> ImageError {
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        let code: ImageError.Code =
            switch error.code {
            case heif_error_Memory_allocation_error: .outOfMemory
            case heif_error_Unsupported_feature, heif_error_Unsupported_filetype: .unsupportedFeature
            default:
                switch error.subcode {
                case heif_suberror_Security_limit_exceeded: .limitExceeded
                case heif_suberror_End_of_data: .truncated
                default: .corruptData
                }
            }
        return ImageError(code, "\(path): libheif: \(message)")
    }
}
