import ShrinkCore

/// Which pixel format a result is delivered in: chosen by content under a policy, or exactly one format.
public enum PixelFormatRequest: Sendable, Hashable {
    /// The cheapest format that serves, like `UIGraphicsImageRenderer`: gray sources → gray8, opaque colour
    /// → yuv420 (1.5 B/px; JPEGs decode straight to planes), anything with alpha → rgba8. The default.
    case memoryOptimized
    /// Premultiplied BGRA, what display surfaces take (4 B/px).
    case displayReady
    /// rgba16 for 16-bit sources, reduced in 16-bit precision all the way (8 B/px); as `.memoryOptimized`
    /// for everything else.
    case highPrecision
    /// Whatever the decoder delivers with no conversion (gray8, rgb8 or rgba8): what lossless outputs want.
    case native
    /// Exactly this format (colour → gray8 keeps luma; a conversion when the decoder delivers another).
    case exactly(PixelFormat)

    /// The format for an image described by `info` whose decoder delivers `native`.
    public func resolve(for info: ImageInfo, native: PixelFormat) -> PixelFormat {
        switch self {
        case .exactly(let format): format
        case .native: native
        case .displayReady: .bgra8Premultiplied
        case .highPrecision where info.bitsPerComponent > 8: .rgba16
        case .highPrecision: PixelFormatRequest.memoryOptimized.resolve(for: info, native: native)
        case .memoryOptimized: info.hasAlpha ? .rgba8 : info.colorModel == .gray ? .gray8 : .yuv420
        }
    }
}
