import CShrinkJPEG
import ShrinkCore

extension ImageError {
    /// The JPEG at `path` has more scans than ``ImageLimits/maxScans`` (`limit`): one wording for every path
    /// that counts them (the scan walk, the lossless transforms; libjpeg's progress monitor says the same).
    static func tooManyScans(path: String, limit: Int) -> ImageError {
        ImageError(
            .limitExceeded, "\(path): the JPEG has more than \(limit) scans, above the limit (ImageLimits.maxScans)")
    }

    /// Translates a shim status into an ImageError naming `path`; the one place libjpeg statuses are mapped.
    static func jpeg(_ status: Int32, decoder: OpaquePointer?, path: String, during stage: String) -> ImageError {
        let text = decoder.map { String(cString: sj_message($0)) } ?? ""
        let cause = text.isEmpty ? nil : text
        switch UInt32(status) {
        case SJ_TRUNCATED.rawValue:
            return ImageError(.truncated, "\(path): JPEG data ends before the image does (\(stage))", cause: cause)
        case SJ_UNSUPPORTED.rawValue:
            return ImageError(.unsupportedFeature, "\(path): unsupported JPEG feature", cause: cause)
        case SJ_MEMORY_LIMIT.rawValue:
            return ImageError(
                .memoryBudgetExceeded,
                "\(path): the JPEG decoder needs more working memory than the limit allows (ImageLimits.maxWorkingBytes)",
                cause: cause)
        case SJ_OUT_OF_MEMORY.rawValue:
            return ImageError(.outOfMemory, "\(path): out of memory while decoding JPEG", cause: cause)
        case SJ_WARNING.rawValue:
            return ImageError(.corruptData, "\(path): corrupt JPEG data (\(stage))", cause: cause)
        case SJ_LIMIT.rawValue:
            return ImageError(
                .limitExceeded,
                "\(path): \(text.isEmpty ? "too many scans" : text), above the limit (ImageLimits.maxScans)",
                cause: nil)
        case SJ_BAD_CALL.rawValue:
            return ImageError(.invalidArgument, "\(path): JPEG decoder used out of order (\(stage))", cause: cause)
        default:
            return ImageError(.corruptData, "\(path): invalid JPEG (\(stage))", cause: cause)
        }
    }
}

/// The warnings libjpeg raised on decoder `d` so far, as one line (its first warning and how many there
/// were), or none.
func jpegWarnings(_ d: OpaquePointer) -> [String] {
    let count = Int(sj_warning_count(d))
    guard count > 0 else { return [] }
    let text = String(cString: sj_warning(d))
    return ["corrupt JPEG data: \(text)\(count > 1 ? " (\(count) warnings)" : "")"]
}

/// A libjpeg decoder over `bytes` with its header read, ready for sj_start or sj_start_raw; destroyed again
/// when the header cannot be read. Input pages of a mapping are released behind it; more than `maxScans`
/// scans fail the decode with `.limitExceeded`.
func openJPEGDecoder(_ bytes: ImageBytes, path: String, maxScans: Int) throws(ImageError) -> OpaquePointer {
    guard
        let d = sj_create(
            bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
            bytes.isPageAlignedMapping ? 1 : 0, Int32(clamping: maxScans))
    else {
        throw ImageError(.outOfMemory, "\(path): cannot create a JPEG decoder")
    }
    var header = sj_header()
    let status = sj_read_header(d, &header)
    guard status == Int32(SJ_OK.rawValue) else {
        let error = ImageError.jpeg(status, decoder: d, path: path, during: "reading the header")
        sj_destroy(d)
        throw error
    }
    return d
}
