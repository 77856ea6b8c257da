import CShrinkSPNG
import ShrinkCore

extension ImageError {
    /// Translates a libspng error code into an ImageError naming `path`; the one place spng codes are mapped.
    static func png(_ code: Int32, path: String, during stage: String) -> ImageError {
        let text = String(cString: spng_strerror(code))
        switch code {
        case Int32(SPNG_IO_EOF.rawValue), Int32(SPNG_EIDAT_TOO_SHORT.rawValue):
            return ImageError(.truncated, "\(path): PNG data ends before the image does (\(stage))", cause: text)
        case Int32(SPNG_ECHUNK_LIMITS.rawValue):
            return ImageError(
                .limitExceeded,
                "\(path): a PNG metadata chunk is above the limit (ImageLimits.maxChunkBytes) (\(stage))", cause: text)
        case Int32(SPNG_EUSER_WIDTH.rawValue), Int32(SPNG_EUSER_HEIGHT.rawValue):
            return ImageError(
                .limitExceeded, "\(path): the PNG is larger than the limit allows (ImageLimits.maxPixels) (\(stage))",
                cause: text)
        case Int32(SPNG_EMEM.rawValue):
            return ImageError(.outOfMemory, "\(path): out of memory while decoding PNG (\(stage))", cause: text)
        case Int32(SPNG_ESIGNATURE.rawValue):
            return ImageError(.unsupportedFormat, "\(path): not a PNG file", cause: text)
        default:
            return ImageError(.corruptData, "\(path): invalid PNG (\(stage))", cause: text)
        }
    }
}
