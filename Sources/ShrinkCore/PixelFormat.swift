/// How pixels are laid out in memory, and what they cost.
///
/// Shrink decodes into the cheapest format that serves: `gray8` for gray sources, `rgb8` for opaque colour.
/// The other formats are listed so that costs can be compared before anything is decoded.
public enum PixelFormat: String, Sendable, CaseIterable, Codable {
    /// One 8-bit luma sample per pixel (1 B/px).
    case gray8
    /// Interleaved 8-bit R, G, B (3 B/px).
    case rgb8
    /// Interleaved 8-bit R, G, B, A (4 B/px).
    case rgba8
    /// Interleaved 16-bit R, G, B, A (8 B/px).
    case rgba16
    /// Planar 8-bit Y, then Cb and Cr at half width and half height, rounded up (1.5 B/px).
    case yuv420

    /// Samples per pixel for interleaved formats (planar yuv420 reports 1, its luma plane).
    public var channels: Int {
        switch self {
        case .gray8, .yuv420: 1
        case .rgb8: 3
        case .rgba8, .rgba16: 4
        }
    }

    /// Exact bytes of an image of `size` in this format, rows tightly packed.
    public func byteCount(for size: Size) -> Int {
        let w = size.width, h = size.height
        switch self {
        case .gray8: return w * h
        case .rgb8: return 3 * w * h
        case .rgba8: return 4 * w * h
        case .rgba16: return 8 * w * h
        case .yuv420: return w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)
        }
    }

    /// The interleaved 8-bit format with `channels` samples per pixel (1 → gray8, 3 → rgb8, 4 → rgba8).
    public static func interleaved8(channels: Int) -> PixelFormat? {
        switch channels {
        case 1: .gray8
        case 3: .rgb8
        case 4: .rgba8
        default: nil
        }
    }
}
