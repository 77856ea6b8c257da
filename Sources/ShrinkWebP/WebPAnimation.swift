import CShrinkWebP
import ShrinkCore

/// An animated WebP decoded frame by frame with libwebp's animation decoder (`WebPAnimDecoder`), which decodes each
/// frame and disposes of and blends it onto a full-size RGBA canvas exactly as the container says; rows are handed
/// out from that canvas. Frames' durations are the differences of the decoder's timestamps.
///
/// Memory: libwebp's two canvases (the current one and the previous, 4 bytes a pixel each) and one frame's decode
/// state; nothing grows with the number of frames.
final class WebPAnimation: AnimationDecoding {
    let canvasSize: PixelSize
    let loopCount: Int
    private(set) var framesRead = 0
    private(set) var warnings: [String] = []

    private let path: String
    private let bytes: ImageBytes
    private var data: WebPData
    private var decoder: OpaquePointer?
    private var canvas: UnsafeMutablePointer<UInt8>?
    private var timestamp: Int32 = 0
    private let monitor: DecodeMonitor?

    /// The animation of `bytes` (named `path` in errors). Fails with `.corruptData` when libwebp's animation
    /// decoder refuses the file, `.outOfMemory` when it cannot allocate.
    init(bytes: ImageBytes, path: String, monitor: DecodeMonitor?) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        self.monitor = monitor
        data = WebPData(bytes: bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw ImageError(.unsupportedFeature, "libwebp does not match the headers Shrink was built with")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw ImageError(.corruptData, "\(path): libwebp's animation decoder refused the file")
        }
        self.decoder = decoder
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            throw ImageError(.corruptData, "\(path): libwebp could not read the animation's header")
        }
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        loopCount = Int(info.loop_count)
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    func advance() throws(ImageError) -> Int? {
        try monitor?.checkpoint(row: 0)
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var next: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &next) != 0, let buffer else {
            if framesRead == 0 { throw ImageError(.corruptData, "\(path): the first WebP frame could not be decoded") }
            warnings.append("frame \(framesRead + 1) could not be decoded: the animation ends before it")
            return nil
        }
        canvas = buffer
        framesRead += 1
        defer { timestamp = next }
        return Int(max(0, next - timestamp))
    }

    func readRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>) {
        guard let canvas else { return }
        row.update(from: canvas + y * canvasSize.width * 4, count: canvasSize.width * 4)
    }
}
