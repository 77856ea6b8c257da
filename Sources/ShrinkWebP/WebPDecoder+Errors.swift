import CShrinkWebP
import ShrinkCore

extension WebPDecoder {
    /// The error for libwebp's `status`.
    static func error(_ status: VP8StatusCode, path: String, during: String) -> ImageError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: ImageError(.truncated, "\(path): WebP data ends early (\(during))")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            ImageError(.unsupportedFeature, "\(path): WebP feature not supported (\(during))")
        case VP8_STATUS_OUT_OF_MEMORY: ImageError(.outOfMemory, "\(path): out of memory \(during)")
        case VP8_STATUS_INVALID_PARAM:
            ImageError(.invalidArgument, "\(path): libwebp refused the parameters (\(during))")
        default: ImageError(.corruptData, "\(path): corrupt WebP data (\(during))")
        }
    }
}
