/// Every limit on one image in one place, checked from headers before anything of that size is allocated:
/// pixels, file bytes, metadata chunks, JPEG scans, and the working memory a decoder may take beyond its
/// result. An image over a limit fails with `.limitExceeded` (working memory: `.memoryBudgetExceeded`), and
/// the message names the limit it hit.
///
/// ```swift
/// let source = try ImageSource(path: upload, limits: ImageLimits(maxPixels: 50_000_000))
/// ```
///
/// (A pipeline's own budget, for the decodes it runs side by side and its caches, is
/// `ImagePipeline.Configuration.budget`.)
public struct ImageLimits: Sendable, Equatable {
    /// Largest image accepted, in pixels (source, and output when upscaling). 268 402 689 (0x3FFF²) by
    /// default, as sharp.
    public var maxPixels: Int
    /// Largest input file, in bytes. 1 GiB by default.
    public var maxInputBytes: Int
    /// Largest metadata chunk (PNG ancillary chunk: text, ICC, EXIF), in bytes; metadata chunks together
    /// may hold 4× this. 16 MiB by default. (libspng 0.7 also caps the number of metadata chunks at 1000,
    /// a limit it does not let callers change.)
    public var maxChunkBytes: Int
    /// Most scans a JPEG may have. Each scan of a progressive file visits every block again, so without a cap
    /// a small file of many tiny scans costs CPU in proportion to its scans, not its pixels. Ordinary
    /// progressive files have about 10; 500 by default (the cap libjpeg-turbo's own fuzzers and TurboJPEG's
    /// scan limit guidance use).
    public var maxScans: Int
    /// Largest working memory one decode may use beyond its result and a strip of rows, in bytes: a
    /// progressive JPEG's coefficient buffer, an interlaced PNG or GIF frame, a lossless transform's
    /// coefficients. Predicted from the header and refused above it (`.memoryBudgetExceeded`), and enforced
    /// inside libjpeg as its memory cap. 1 GiB by default.
    public var maxWorkingBytes: Int
    /// Most frames an animation is decoded with (imgproxy's `MAX_ANIMATION_FRAMES`): over it, counted from the
    /// header, the image is its first frame, with a warning. 1000 by default.
    public var maxAnimationFrames: Int
    /// Most pixels an animation's frames may hold together, frames × canvas pixels, which bounds the CPU of decoding
    /// them all: over it, from the header, the image is its first frame, with a warning. 1 073 741 824 (2³⁰: a thousand
    /// 1000×1000 frames) by default.
    public var maxAnimationPixels: Int
    /// Longest side of a result, after finishing (imgproxy's `MAX_RESULT_DIMENSION`): a plan giving a longer one is
    /// refused (`.limitExceeded`). Unbounded (`Int.max`) by default.
    public var maxResultSide = Int.max

    /// Limits with the defaults above, or the values given.
    public init(
        maxPixels: Int = 0x3FFF * 0x3FFF, maxInputBytes: Int = 1 << 30, maxChunkBytes: Int = 16 << 20,
        maxScans: Int = 500, maxWorkingBytes: Int = 1 << 30, maxAnimationFrames: Int = 1000,
        maxAnimationPixels: Int = 1 << 30
    ) {
        self.maxAnimationFrames = maxAnimationFrames
        self.maxAnimationPixels = maxAnimationPixels
        self.maxPixels = maxPixels
        self.maxInputBytes = maxInputBytes
        self.maxChunkBytes = maxChunkBytes
        self.maxScans = maxScans
        self.maxWorkingBytes = maxWorkingBytes
    }

    /// Fails with `.limitExceeded` naming `path` when an image of `size` has more than ``maxPixels`` pixels, and
    /// with `.corruptData` for an empty size: what a codec checks from the header before allocating anything.
    public func check(_ size: PixelSize, path: String, what: String = "image") throws(ImageError) {
        guard size.width > 0, size.height > 0 else {
            throw ImageError(.corruptData, "\(path): \(what) has an empty size \(size)")
        }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= maxPixels else {
            throw ImageError(
                .limitExceeded,
                "\(path): \(what) is \(size) (\(overflow ? "too many" : "\(pixels)") pixels), above the limit of \(maxPixels) pixels (ImageLimits.maxPixels)"
            )
        }
    }

    /// Fails with `.limitExceeded` naming `path` when a result of `size` has a side longer than ``maxResultSide``.
    public func check(resultSize size: PixelSize, path: String) throws(ImageError) {
        guard max(size.width, size.height) <= maxResultSide else {
            throw ImageError(
                .limitExceeded,
                "\(path): the result would be \(size), longer than \(maxResultSide) pixels on a side (ImageLimits.maxResultSide)"
            )
        }
    }

    /// Fails with `.limitExceeded` when the input is larger than ``maxInputBytes``.
    package func check(inputBytes: Int, path: String) throws(ImageError) {
        guard inputBytes <= maxInputBytes else {
            throw ImageError(
                .limitExceeded,
                "\(path): file is \(inputBytes) bytes, above the limit of \(maxInputBytes) (ImageLimits.maxInputBytes)")
        }
    }

    /// Fails with `.memoryBudgetExceeded` naming `path` when `bytes` of working memory (`what` needs them) are
    /// more than ``maxWorkingBytes``.
    package func check(workingBytes bytes: Int, for what: String, path: String) throws(ImageError) {
        try Self.check(workingBytes: bytes, limit: maxWorkingBytes, for: what, path: path)
    }

    /// The same check against `limit`, the ``maxWorkingBytes`` a codec was handed as a plain number.
    package static func check(workingBytes bytes: Int, limit: Int, for what: String, path: String) throws(ImageError) {
        guard bytes <= limit else {
            throw ImageError(
                .memoryBudgetExceeded,
                "\(path): \(what) needs \(mebibytes(bytes)) of working memory, above the limit of \(mebibytes(limit)) (ImageLimits.maxWorkingBytes)"
            )
        }
    }

    /// `bytes` in MiB with one decimal, as messages print memory.
    package static func mebibytes(_ bytes: Int) -> String {
        let tenths = Int((Double(bytes) / 1_048_576 * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}

extension ImageLimits {
    /// Why an animation of `frames` frames on a `canvas` is decoded as its first frame only (over
    /// ``maxAnimationFrames`` or ``maxAnimationPixels``), or nil when it is within both: the warning it carries.
    package func animationRefusal(frames: Int, canvas: PixelSize) -> String? {
        if frames > maxAnimationFrames {
            return "\(frames) frames are above the limit of \(maxAnimationFrames) animation frames: first frame only"
        }
        let (total, overflow) = frames.multipliedReportingOverflow(by: canvas.pixelCount)
        if overflow || total > maxAnimationPixels {
            return
                "\(frames) frames of \(canvas) are above the limit of \(maxAnimationPixels) animation pixels: first frame only"
        }
        return nil
    }
}
