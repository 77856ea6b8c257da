import Shrink

/// The limits every harness decodes under: small enough that no input can make Shrink hold much more than
/// 64 MiB, far below libFuzzer's -malloc_limit_mb and -rss_limit_mb, and that the slowest decode (a full-size
/// 1 MP image under ASan) stays well inside -timeout.
public enum FuzzLimits {
    /// Sources of at most 1 MP (1024 × 1024), 4 MiB of input, 1 MiB metadata chunks, ``workingBytes``; animations of
    /// at most 64 frames and 4 MP of frames together (each frame is composited and resampled).
    public static let image = ImageLimits(
        maxPixels: 1 << 20, maxInputBytes: 4 << 20, maxChunkBytes: 1 << 20,
        maxWorkingBytes: workingBytes, maxAnimationFrames: 64, maxAnimationPixels: 4 << 20)
    /// Sources of at most 16 MP (4096 × 4096) for the DC-first decoder, which holds no coefficient buffer:
    /// its 1/8 result is at most 512 × 512, and any other path is held to ``workingBytes``.
    public static let progressive = ImageLimits(
        maxPixels: 4096 * 4096, maxInputBytes: 4 << 20, maxChunkBytes: 1 << 20,
        maxWorkingBytes: workingBytes)
    /// The working memory a decoder may hold (a progressive JPEG's coefficients, an interlaced PNG's grid).
    public static let workingBytes = 64 << 20
}
