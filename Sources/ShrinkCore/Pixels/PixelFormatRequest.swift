/// Which pixel format a result is delivered in: chosen by content under a policy, or exactly one format.
public enum PixelFormatRequest: Sendable, Hashable {
    /// The cheapest format that serves, like `UIGraphicsImageRenderer`: gray sources → gray8, opaque colour
    /// → yuv420 (1.5 B/px; JPEGs decode straight to planes), gray with alpha → grayAlpha8, colour with alpha
    /// → rgba8; a result whose visible pixels are all black is an alpha-only mask → alpha8. The default.
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
    package func resolve(for info: ImageInfo, native: PixelFormat) -> PixelFormat {
        switch self {
        case .exactly(let format): format
        case .native: native
        case .displayReady: .bgra8Premultiplied
        case .highPrecision where info.bitsPerComponent > 8: .rgba16
        case .highPrecision: PixelFormatRequest.memoryOptimized.resolve(for: info, native: native)
        case .memoryOptimized:
            switch (info.hasAlpha, info.colorModel) {
            case (true, .gray), (true, .grayAlpha): .grayAlpha8
            case (true, _): .rgba8
            case (false, .gray): .gray8
            default: .yuv420
            }
        }
    }

    /// True when `pixels` (with alpha) are an alpha-only mask: every pixel that shows has colour 0, so
    /// alpha8 holds them exactly. One pass over the pixels.
    package static func isMask(_ pixels: PixelBuffer) -> Bool {
        let bpp = pixels.format.bytesPerPixel
        guard pixels.format == .rgba8 || pixels.format == .grayAlpha8 else { return false }
        return pixels.bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i + bpp - 1] != 0 {
                    for k in 0..<(bpp - 1) where p[i + k] != 0 { return false }
                }
                i += bpp
            }
            return true
        }
    }
}
