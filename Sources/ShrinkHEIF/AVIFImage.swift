import CShrinkAVIF
import ShrinkCore

/// libavif's image for one encode: created for a ``PixelBuffer``'s format and size, then given the pixels. YUV
/// 4:2:0 and gray pixels are lent to it as planes (no copy); RGB, RGBA and `rgba16` are converted into planes it owns
/// (4:2:0 for lossy, 4:4:4 with the identity matrix for lossless). The caller destroys ``image``.
struct AVIFImage {
    /// The image (owned by the caller once made).
    let image: UnsafeMutablePointer<avifImage>

    /// An image for `pixels` (yuv420, gray8, rgb8, rgba8 or rgba16), full range, sRGB primaries and transfer.
    /// Fails with `.outOfMemory` when libavif cannot allocate.
    init(_ pixels: PixelBuffer, lossless: Bool) throws(ImageError) {
        let size = pixels.size
        let depth: UInt32 = pixels.format == .rgba16 ? 10 : 8
        let layout: avifPixelFormat =
            switch pixels.format {
            case .gray8: AVIF_PIXEL_FORMAT_YUV400
            case .yuv420: AVIF_PIXEL_FORMAT_YUV420
            default: lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
            }
        guard let image = shrink_avif_image_create(UInt32(size.width), UInt32(size.height), depth, layout) else {
            throw ImageError(.outOfMemory, "libavif could not create a \(size) image")
        }
        self.image = image
        image.pointee.yuvRange = AVIF_RANGE_FULL
        image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = avifMatrixCoefficients(
            lossless && pixels.format != .gray8 && pixels.format != .yuv420
                ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
        switch pixels.format {
        case .gray8, .yuv420: break
        default:
            let planes = pixels.format.hasAlpha ? AVIF_PLANES_ALL : AVIF_PLANES_YUV
            let result = shrink_avif_image_allocate_planes(image, avifPlanesFlags(planes.rawValue))
            guard result == AVIF_RESULT_OK else {
                shrink_avif_image_destroy(image)
                throw ImageError(.outOfMemory, "libavif could not allocate a \(size) image")
            }
        }
    }

    /// Gives the image `bytes`, the storage of `pixels`: lent as planes (yuv420, gray8; they must outlive the
    /// encode) or converted to YUV (and alpha) in the image's own planes.
    func attach(_ bytes: UnsafeBufferPointer<UInt8>, of pixels: PixelBuffer) throws(ImageError) {
        let base = UnsafeMutablePointer(mutating: bytes.baseAddress!)
        let size = pixels.size
        switch pixels.format {
        case .gray8, .yuv420:
            let planes = pixels.planes
            withUnsafeMutableBytes(of: &image.pointee.yuvPlanes) { raw in
                let slots = raw.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                for (i, plane) in planes.enumerated() { slots[i] = base + plane.offset }
            }
            withUnsafeMutableBytes(of: &image.pointee.yuvRowBytes) { raw in
                let slots = raw.bindMemory(to: UInt32.self)
                for (i, plane) in planes.enumerated() { slots[i] = UInt32(plane.bytesPerRow) }
            }
            image.pointee.imageOwnsYUVPlanes = AVIF_FALSE
        default:
            var rgb = avifRGBImage()
            shrink_avif_rgb_image_set_defaults(&rgb, image)
            rgb.depth = pixels.format == .rgba16 ? 16 : 8
            rgb.format = pixels.format.hasAlpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
            rgb.pixels = base
            rgb.rowBytes = UInt32(size.width * pixels.format.bytesPerPixel)
            let result = shrink_avif_image_rgb_to_yuv(image, &rgb)
            guard result == AVIF_RESULT_OK else {
                throw ImageError(
                    .invalidArgument,
                    "libavif could not convert the pixels to YUV (\(String(cString: shrink_avif_result_to_string(result))))"
                )
            }
        }
    }
}
