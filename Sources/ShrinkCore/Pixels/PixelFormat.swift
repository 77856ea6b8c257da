/// How pixels are laid out in memory, and exactly what they cost.
///
/// Interleaved formats store one row after another, `width × bytesPerPixel` bytes each, no padding.
/// The planar formats store full-resolution luma, then chroma at half width and half height (rounded up):
/// `yuv420` as separate Cb and Cr planes (I420), `nv12` as one plane of interleaved Cb,Cr pairs (like
/// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange`). YUV is full-range BT.601 as JPEG stores it unless a
/// conversion says otherwise.
public enum PixelFormat: String, Sendable, CaseIterable, Codable {
    /// One 8-bit luma sample per pixel (1 B/px).
    case gray8
    /// 8-bit luma and alpha (2 B/px).
    case grayAlpha8
    /// 8-bit alpha only: a mask (1 B/px).
    case alpha8
    /// Interleaved 8-bit R, G, B (3 B/px).
    case rgb8
    /// Interleaved 8-bit R, G, B, A, straight alpha (4 B/px).
    case rgba8
    /// Interleaved 8-bit R, G, B, A with colour premultiplied by alpha (4 B/px).
    case rgba8Premultiplied
    /// Interleaved 8-bit B, G, R, A, straight alpha (4 B/px).
    case bgra8
    /// Interleaved 8-bit B, G, R, A, premultiplied: what display surfaces take (4 B/px).
    case bgra8Premultiplied
    /// Interleaved 16-bit R, G, B, A in host byte order (8 B/px).
    case rgba16
    /// Planar 8-bit Y, then Cb, then Cr at half width and half height, rounded up (1.5 B/px).
    case yuv420
    /// 8-bit Y plane, then one plane of interleaved Cb,Cr pairs at half resolution (1.5 B/px).
    case nv12

    /// Samples per pixel of an interleaved format (planar formats report 1, their luma plane's).
    public var channels: Int {
        switch self {
        case .gray8, .alpha8, .yuv420, .nv12: 1
        case .grayAlpha8: 2
        case .rgb8: 3
        case .rgba8, .rgba8Premultiplied, .bgra8, .bgra8Premultiplied, .rgba16: 4
        }
    }

    /// Bytes per pixel of an interleaved format (planar formats report 1, their luma plane's).
    public var bytesPerPixel: Int { self == .rgba16 ? 8 : channels }

    /// True for yuv420 and nv12.
    public var isPlanar: Bool { self == .yuv420 || self == .nv12 }

    /// True when the format carries alpha.
    public var hasAlpha: Bool {
        switch self {
        case .grayAlpha8, .alpha8, .rgba8, .rgba8Premultiplied, .bgra8, .bgra8Premultiplied, .rgba16: true
        default: false
        }
    }

    /// One plane of an image: where it starts in the buffer and how it is laid out.
    public struct Plane: Sendable, Equatable {
        /// Byte offset of the plane's first row in the buffer.
        public var offset: Int
        /// Samples (pixels of this plane) per row.
        public var width: Int
        /// Rows of this plane.
        public var height: Int
        /// Bytes per pixel of this plane (2 for nv12's CbCr pairs).
        public var bytesPerPixel: Int
        /// Bytes from one row to the next.
        public var bytesPerRow: Int { width * bytesPerPixel }
        /// Bytes of the whole plane.
        public var byteCount: Int { bytesPerRow * height }
    }

    /// The planes of an image of `size`, in buffer order (one plane for interleaved formats).
    public func planes(for size: PixelSize) -> [Plane] {
        let w = size.width, h = size.height
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        switch self {
        case .yuv420:
            return [
                Plane(offset: 0, width: w, height: h, bytesPerPixel: 1),
                Plane(offset: w * h, width: cw, height: ch, bytesPerPixel: 1),
                Plane(offset: w * h + cw * ch, width: cw, height: ch, bytesPerPixel: 1),
            ]
        case .nv12:
            return [
                Plane(offset: 0, width: w, height: h, bytesPerPixel: 1),
                Plane(offset: w * h, width: cw, height: ch, bytesPerPixel: 2),
            ]
        default:
            return [Plane(offset: 0, width: w, height: h, bytesPerPixel: bytesPerPixel)]
        }
    }

    /// Exact bytes of an image of `size` in this format: yuv420 and nv12 are `w·h + 2·⌈w/2⌉·⌈h/2⌉`.
    public func byteCount(for size: PixelSize) -> Int {
        planes(for: size).reduce(0) { $0 + $1.byteCount }
    }

    /// The interleaved 8-bit format with `channels` samples per pixel (1 → gray8, 2 → grayAlpha8,
    /// 3 → rgb8, 4 → rgba8).
    public static func interleaved8(channels: Int) -> PixelFormat? {
        switch channels {
        case 1: .gray8
        case 2: .grayAlpha8
        case 3: .rgb8
        case 4: .rgba8
        default: nil
        }
    }
}
