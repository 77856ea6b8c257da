import CShrinkWebP
import ShrinkCore

/// One WebP frame decoded by libwebp (its incremental decoder, fed from the mapped file) into memory Shrink
/// allocates and owns: interleaved RGB or
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

    let size: PixelSize
    let mode: Mode
    /// The pixels: rows (`size.width × channels` apart) or the Y plane followed by U and V.
    let buffer: UnsafeMutableRawPointer
    let byteCount: Int

    /// Decodes the coded frame at `range` of `bytes` at `size` (libwebp's scaler when it differs from the
    /// coded size). The data is fed to libwebp's incremental decoder a step at a time: between steps the
    /// input's pages are released (libwebp faults back in the few it reads again, from the page cache) and
    /// `monitor` may cancel. Fails with the typed error for libwebp's status (`.corruptData`, `.truncated`,
    /// `.unsupportedFeature`).
    /// With `crop` (stored pixels, left and top even), libwebp emits only that rectangle, scaled to `size`.
    init(
        bytes: ImageBytes, range: Range<Int>, codedSize: PixelSize, crop: WebPCrop?, size: PixelSize, mode: Mode,
        fast: Bool,
        monitor: DecodeMonitor?, path: String
    ) throws(ImageError) {
        self.size = size
        self.mode = mode
        byteCount = Self.byteCount(of: size, mode: mode)
        buffer = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
        // Every stored property is set: from here a throw runs deinit, which frees `buffer`. libwebp keeps a
        // pointer to the configuration for the decoder's life, so it lives on the heap.
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        defer { config.deallocate() }
        guard WebPInitDecoderConfig(config) != 0 else {
            throw ImageError(
                .unsupportedFeature, "\(path): this libwebp does not match the headers Shrink was built with")
        }
        if let crop {
            config.pointee.options.use_cropping = 1
            config.pointee.options.crop_left = Int32(crop.x)
            config.pointee.options.crop_top = Int32(crop.y)
            config.pointee.options.crop_width = Int32(crop.width)
            config.pointee.options.crop_height = Int32(crop.height)
        }
        if size != (crop.map { PixelSize(width: $0.width, height: $0.height) } ?? codedSize) {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(size.width)
            config.pointee.options.scaled_height = Int32(size.height)
        }
        config.pointee.options.bypass_filtering = fast ? 1 : 0
        config.pointee.options.no_fancy_upsampling = fast ? 1 : 0
        Self.attach(buffer, size: size, mode: mode, byteCount: byteCount, to: &config.pointee.output)
        guard let decoder = WebPIDecode(nil, 0, config) else {
            throw ImageError(.outOfMemory, "\(path): cannot create a WebP decoder")
        }
        defer {
            WebPIDelete(decoder)
            WebPFreeDecBuffer(&config.pointee.output) // external memory: only libwebp's bookkeeping
        }
        let data = bytes.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + range.lowerBound
        var fed = 0
        while true {
            fed = min(range.count, fed + Self.step)
            let status = WebPIUpdate(decoder, data, fed)
            if status == VP8_STATUS_OK { break }
            guard status == VP8_STATUS_SUSPENDED else {
                throw WebPDecoder.error(status, path: path, during: "decoding the image")
            }
            guard fed < range.count else {
                throw ImageError(.truncated, "\(path): WebP data ends before the image does")
            }
            bytes.releaseResidentPages(in: range)
            try monitor?.checkpoint(row: 0)
        }
        bytes.releaseResidentPages(in: range)
    }

    /// Bytes of input given to libwebp per step (between page releases and cancellation checks).
    static let step = 256 << 10

    /// Points libwebp's output at `buffer`: interleaved rows, or Y, U, V (and A) planes one after another.
    private static func attach(
        _ buffer: UnsafeMutableRawPointer, size: PixelSize, mode: Mode, byteCount: Int, to output: inout WebPDecBuffer
    ) {
        let p = buffer.assumingMemoryBound(to: UInt8.self)
        output.is_external_memory = 1
        switch mode {
        case .rgb, .rgba:
            output.colorspace = mode == .rgb ? MODE_RGB : MODE_RGBA
            output.u.RGBA.rgba = p
            output.u.RGBA.stride = Int32(size.width * (mode == .rgb ? 3 : 4))
            output.u.RGBA.size = byteCount
        case .yuv, .yuva:
            let (lumaBytes, chroma) = planeLayout(size)
            output.colorspace = mode == .yuv ? MODE_YUV : MODE_YUVA
            output.u.YUVA.y = p
            output.u.YUVA.y_stride = Int32(size.width)
            output.u.YUVA.y_size = lumaBytes
            output.u.YUVA.u = p + lumaBytes
            output.u.YUVA.v = p + lumaBytes + chroma.pixelCount
            output.u.YUVA.u_stride = Int32(chroma.width)
            output.u.YUVA.v_stride = Int32(chroma.width)
            output.u.YUVA.u_size = chroma.pixelCount
            output.u.YUVA.v_size = chroma.pixelCount
            if mode == .yuva {
                output.u.YUVA.a = p + lumaBytes + 2 * chroma.pixelCount
                output.u.YUVA.a_stride = Int32(size.width)
                output.u.YUVA.a_size = lumaBytes
            }
        }
    }

    deinit { buffer.deallocate() }

    /// Bytes of a frame of `size` in `mode`.
    static func byteCount(of size: PixelSize, mode: Mode) -> Int {
        switch mode {
        case .rgb: size.pixelCount * 3
        case .rgba: size.pixelCount * 4
        case .yuv: size.pixelCount + 2 * planeLayout(size).chroma.pixelCount
        case .yuva: 2 * size.pixelCount + 2 * planeLayout(size).chroma.pixelCount
        }
    }

    /// The luma plane's bytes and the chroma planes' size (half, rounded up).
    static func planeLayout(_ size: PixelSize) -> (lumaBytes: Int, chroma: PixelSize) {
        (size.pixelCount, PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2))
    }
}
