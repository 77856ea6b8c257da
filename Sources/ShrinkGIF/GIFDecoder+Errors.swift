import CShrinkGIF
import ShrinkCore

extension ImageError {
    /// Translates a giflib error code, raised while `stage` ran, into an ImageError naming `path`; the one place
    /// giflib codes are mapped. `reachedEnd` says the input ran out, which giflib reports as a plain read failure.
    static func gif(_ code: Int32, reachedEnd: Bool, path: String, during stage: String) -> ImageError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        if reachedEnd {
            return ImageError(.truncated, "\(path): GIF data ends before the first frame does (\(stage))", cause: text)
        }
        switch code {
        case D_GIF_ERR_EOF_TOO_SOON:
            return ImageError(
                .truncated, "\(path): the first frame's LZW data ends before the frame does (\(stage))", cause: text)
        case D_GIF_ERR_NOT_ENOUGH_MEM:
            return ImageError(.outOfMemory, "\(path): out of memory while decoding GIF (\(stage))", cause: text)
        case D_GIF_ERR_READ_FAILED:
            // Not the end of the input: giflib's code for an LZW minimum code size above 8.
            return ImageError(.corruptData, "\(path): invalid GIF LZW minimum code size (\(stage))", cause: text)
        default:
            return ImageError(.corruptData, "\(path): invalid GIF LZW data (\(stage))", cause: text)
        }
    }
}
