import CShrinkWebP
import ShrinkCore

/// One WebP frame decoded by libwebp, in one call, into memory Shrink allocates and owns: interleaved RGB or
/// RGBA rows, or Y, U, V (and A) planes (4:2:0, VP8's limited range), at the size libwebp's scaler is asked
/// for. (libwebp's scaler premultiplies colour by alpha only on its YUVA path, so lossy frames with alpha
/// are scaled as YUVA and converted by ``WebPRowDecoder``: no halo at alpha edges.) libwebp streams its
/// own work row by row (a few rows of the coded width, an alpha plane or a lossless image at full size
/// while it runs); what stays is this buffer, ``byteCount(of:mode:)`` bytes.
final class WebPFrame {
    /// What the buffer holds.
    enum Mode {
        case rgb, rgba, yuv, yuva
    }

    let size: Size
    let mode: Mode
    /// The pixels: rows (`size.width × channels` apart) or the Y plane followed by U and V.
    let buffer: UnsafeMutableRawPointer
    let byteCount: Int

    /// Decodes the coded frame `data` at `size` (libwebp's scaler when it differs from the coded size).
    /// Fails with the typed error for libwebp's status (`.corruptData`, `.truncated`, `.unsupportedFeature`).
    init(data: UnsafeRawBufferPointer, codedSize: Size, size: Size, mode: Mode, fast: Bool, path: String) throws(ImageError) {
        self.size = size
        self.mode = mode
        byteCount = Self.byteCount(of: size, mode: mode)
        buffer = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
        var config = WebPDecoderConfig()
        // Every stored property is set: from here a throw runs deinit, which frees `buffer`.
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImageError(.unsupportedFeature, "\(path): this libwebp does not match the headers Shrink was built with")
        }
        if size != codedSize {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        config.options.bypass_filtering = fast ? 1 : 0
        config.options.no_fancy_upsampling = fast ? 1 : 0
        config.output.is_external_memory = 1
        let p = buffer.assumingMemoryBound(to: UInt8.self)
        switch mode {
        case .rgb, .rgba:
            config.output.colorspace = mode == .rgb ? MODE_RGB : MODE_RGBA
            config.output.u.RGBA.rgba = p
            config.output.u.RGBA.stride = Int32(size.width * (mode == .rgb ? 3 : 4))
            config.output.u.RGBA.size = byteCount
        case .yuv, .yuva:
            let (lumaBytes, chroma) = Self.planeLayout(size)
            config.output.colorspace = mode == .yuv ? MODE_YUV : MODE_YUVA
            if mode == .yuva {
                config.output.u.YUVA.a = p + lumaBytes + 2 * chroma.pixelCount
                config.output.u.YUVA.a_stride = Int32(size.width)
                config.output.u.YUVA.a_size = lumaBytes
            }
            config.output.u.YUVA.y = p
            config.output.u.YUVA.y_stride = Int32(size.width)
            config.output.u.YUVA.y_size = lumaBytes
            config.output.u.YUVA.u = p + lumaBytes
            config.output.u.YUVA.v = p + lumaBytes + chroma.pixelCount
            config.output.u.YUVA.u_stride = Int32(chroma.width)
            config.output.u.YUVA.v_stride = Int32(chroma.width)
            config.output.u.YUVA.u_size = chroma.pixelCount
            config.output.u.YUVA.v_size = chroma.pixelCount
        }
        let status = WebPDecode(data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, &config)
        WebPFreeDecBuffer(&config.output)        // external memory: frees nothing of ours, only libwebp's bookkeeping
        guard status == VP8_STATUS_OK else {
            throw WebPDecoder.error(status, path: path, during: "decoding the image")
        }
    }

    deinit { buffer.deallocate() }

    /// Bytes of a frame of `size` in `mode`.
    static func byteCount(of size: Size, mode: Mode) -> Int {
        switch mode {
        case .rgb: size.pixelCount * 3
        case .rgba: size.pixelCount * 4
        case .yuv: size.pixelCount + 2 * planeLayout(size).chroma.pixelCount
        case .yuva: 2 * size.pixelCount + 2 * planeLayout(size).chroma.pixelCount
        }
    }

    /// The luma plane's bytes and the chroma planes' size (half, rounded up).
    static func planeLayout(_ size: Size) -> (lumaBytes: Int, chroma: Size) {
        (size.pixelCount, Size(width: (size.width + 1) / 2, height: (size.height + 1) / 2))
    }
}
