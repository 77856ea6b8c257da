import CShrinkWebP
import ShrinkCore

/// One animated WebP being written with libwebp's animation encoder (`WebPAnimEncoder`), which encodes each frame as
/// the rectangle that changed, choosing disposal and blending per frame, and merges a frame into the one before when
/// nothing changed (their durations summed).
///
/// Durations are kept exactly, 0 included: libwebp's encoder takes only rising timestamps, so it is fed each duration
/// times a scale (the power of two above the number of frames expected), plus 1 ms, and the assembled file's
/// durations are divided back (a frame merged from `m` frames carries `m` extra units, which the division drops).
/// A duration is at most (2²⁴ − 1) / scale ms (32 s for 300 frames): WebP's durations have 24 bits.
///
/// Memory: libwebp's canvases at the animation's size (about 4 of 4 bytes a pixel), the frame being encoded and the
/// encoded frames so far (the file, which grows with the frames).
final class WebPAnimationWriter: AnimationWriting {
    /// libwebp's encoder; nil once the file is assembled (its frames freed before the file is copied out).
    private var encoder: OpaquePointer?
    private var config: WebPConfig
    private let size: PixelSize
    private let scale: Int
    private var timestamp = 0
    private var frames = 0
    /// Some frame has a pixel that is not opaque (the file's alpha flag must say so).
    private var hasTransparency = false
    private let icc: [UInt8]?
    private let exif: [UInt8]?

    /// A writer of `size` frames with `options`' quality and mode, `loopCount` plays (0 forever), for about
    /// `expectedFrames` frames (the duration scale).
    init(
        size: PixelSize, loopCount: Int, options: WebPEncoder.Options, metadata: ImageMetadata, expectedFrames: Int
    ) throws(ImageError) {
        try WebPLibrary.load(for: "writing WebP")
        guard size.width <= Int(WEBP_MAX_DIMENSION), size.height <= Int(WEBP_MAX_DIMENSION) else {
            throw ImageError(
                .invalidArgument, "WebP images are at most \(WEBP_MAX_DIMENSION) pixels on a side, not \(size)")
        }
        guard (1...100).contains(options.quality), (0...6).contains(options.method) else {
            throw ImageError(.invalidArgument, "WebP quality must be 1-100 and method 0-6")
        }
        var animation = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animation) != 0 else {
            throw ImageError(.unsupportedFeature, "libwebp does not match the headers Shrink was built with")
        }
        animation.anim_params.loop_count = Int32(max(0, min(loopCount, 65535)))
        animation.anim_params.bgcolor = 0
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &animation) else {
            throw ImageError(.outOfMemory, "libwebp could not start an animation encoder")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            WebPAnimEncoderDelete(encoder)
            throw ImageError(.unsupportedFeature, "libwebp does not match the headers Shrink was built with")
        }
        config.quality = Float(options.quality)
        config.lossless = options.lossless ? 1 : 0
        config.method = Int32(options.method)
        config.exact = options.exact ? 1 : 0
        self.encoder = encoder
        self.config = config
        self.size = size
        var s = 2
        while s <= expectedFrames { s *= 2 }
        scale = s
        icc = options.keepICCProfile ? metadata.iccProfile : nil
        exif = options.keepEXIF ? metadata.exif : nil
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func add(_ frame: PixelBuffer, durationMilliseconds: Int) throws(ImageError) {
        guard encoder != nil else { throw ImageError(.invalidArgument, "the animation was already finished") }
        guard frame.size == size else {
            throw ImageError(.invalidArgument, "an animation frame is \(frame.size), the animation \(size)")
        }
        let rgba = frame.format == .rgba8 ? frame : PixelConverter.convert(frame, to: .rgba8)
        if !hasTransparency { hasTransparency = Self.hasTransparency(rgba) }
        let duration = min(max(0, durationMilliseconds), ((1 << 24) - scale) / scale)
        try encode(rgba)
        timestamp += duration * scale + 1
        frames += 1
    }

    func finish() throws(ImageError) -> [UInt8] {
        guard frames > 0 else { throw ImageError(.invalidArgument, "an animation needs at least one frame") }
        guard let encoder else { throw ImageError(.invalidArgument, "the animation was already finished") }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else { throw failure() }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { throw failure() }
        defer { WebPDataClear(&data) }
        // The encoded frames are in the assembled file now: free them before copying it (one copy less at the peak).
        WebPAnimEncoderDelete(encoder)
        self.encoder = nil
        var file = Array(UnsafeBufferPointer(start: bytes, count: data.size))
        Self.rescaleDurations(&file, by: scale)
        // libwebp sets the alpha flag only when a frame it wrote has alpha; a frame disposed of to the (transparent)
        // background leaves transparency without one, and decoders then show the canvas opaque.
        if hasTransparency { Self.setAlphaFlag(&file) }
        guard icc != nil || exif != nil else { return file }
        return try WebPEncoder.adding(icc: icc, exif: exif, to: file)
    }

    /// Encodes one rgba8 frame at the current timestamp.
    private func encode(_ rgba: PixelBuffer) throws(ImageError) {
        guard timestamp < Int(Int32.max) else {
            throw ImageError(.invalidArgument, "the animation is longer than WebP's timestamps reach")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageError(.unsupportedFeature, "libwebp does not match the headers Shrink was built with")
        }
        picture.width = Int32(size.width)
        picture.height = Int32(size.height)
        picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let imported = rgba.bytes.withUnsafeBufferPointer { p in
            WebPPictureImportRGBA(&picture, p.baseAddress, Int32(size.width * 4)) != 0
        }
        guard imported else { throw ImageError(.outOfMemory, "libwebp could not take an animation frame") }
        guard WebPAnimEncoderAdd(encoder!, &picture, Int32(timestamp), &config) != 0 else { throw failure() }
    }

    private func failure() -> ImageError {
        let message = encoder.flatMap { WebPAnimEncoderGetError($0) }.map { String(cString: $0) } ?? "unknown error"
        return ImageError(.encodingFailed, "libwebp could not encode the animation (\(message))")
    }

    /// True when some pixel of rgba8 `frame` is not opaque.
    static func hasTransparency(_ frame: PixelBuffer) -> Bool {
        frame.bytes.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }

    /// Sets the alpha bit of the `VP8X` chunk's flags (the first chunk of an animated file).
    static func setAlphaFlag(_ file: inout [UInt8]) {
        guard file.count >= 21, String(decoding: file[12..<16], as: UTF8.self) == "VP8X" else { return }
        file[20] |= 0x10
    }

    /// Divides the duration of every `ANMF` chunk of the RIFF file in `file` by `scale`.
    static func rescaleDurations(_ file: inout [UInt8], by scale: Int) {
        var p = 12
        while p + 8 <= file.count {
            let fourCC = String(decoding: file[p..<p + 4], as: UTF8.self)
            let length = Int(file[p + 4]) | Int(file[p + 5]) << 8 | Int(file[p + 6]) << 16 | Int(file[p + 7]) << 24
            let payload = p + 8
            if fourCC == "ANMF", payload + 16 <= file.count {
                let at = payload + 12
                let d = (Int(file[at]) | Int(file[at + 1]) << 8 | Int(file[at + 2]) << 16) / scale
                (file[at], file[at + 1], file[at + 2]) = (UInt8(d & 0xFF), UInt8(d >> 8 & 0xFF), UInt8(d >> 16 & 0xFF))
            }
            p = payload + length + (length & 1)
        }
    }
}
