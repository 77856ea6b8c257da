/// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be transformed to be displayed.
///
/// Shrink applies it exactly once, as the last step of every decode, on the already reduced pixels.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored as displayed.
    case up = 1
    /// Mirrored left–right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top–bottom.
    case downMirrored = 4
    /// Transposed (mirrored across the main diagonal).
    case leftMirrored = 5
    /// Displayed after a 90° clockwise rotation.
    case right = 6
    /// Transversed (mirrored across the anti-diagonal).
    case rightMirrored = 7
    /// Displayed after a 90° counter-clockwise rotation.
    case left = 8

    /// The orientation for an EXIF value; anything outside 1–8 (0 appears in the wild) means `.up`.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// True for 5–8, where the displayed width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The orientation that displays stored pixels as this one does and then applies `next` to the result
    /// (an extra rotation after EXIF's: `.right.followed(by: .right)` is `.down`). Found by mapping the
    /// pixels of a 3×2 image through both, so it is exact for all 64 pairs.
    public func followed(by next: ImageOrientation) -> ImageOrientation {
        let size = PixelSize(width: 3, height: 2), mid = displayedSize(of: size)
        return ImageOrientation.allCases.first { c in
            (0..<2).allSatisfy { y in
                (0..<3).allSatisfy { x in
                    let d = displayedPosition(x: x, y: y, in: size)
                    return c.displayedPosition(x: x, y: y, in: size) == next.displayedPosition(x: d.x, y: d.y, in: mid)
                }
            }
        } ?? self
    }

    /// The orientation that undoes this one: `o.followed(by: o.inverse)` is `.up`.
    public var inverse: ImageOrientation { Self.allCases.first { followed(by: $0) == .up } ?? .up }

    /// The orientation that rotates a displayed image `degrees` clockwise (0, 90, 180 or 270); nil otherwise.
    public init?(clockwiseRotation degrees: Int) {
        switch degrees {
        case 0: self = .up
        case 90: self = .right
        case 180: self = .down
        case 270: self = .left
        default: return nil
        }
    }

    /// The displayed size of an image stored at `size`.
    public func displayedSize(of size: PixelSize) -> PixelSize { swapsAxes ? size.transposed : size }

    /// The stored size of an image displayed at `size` (the inverse of ``displayedSize(of:)``).
    public func storedSize(of size: PixelSize) -> PixelSize { swapsAxes ? size.transposed : size }

    /// Where stored pixel (x, y) of an image stored at `size` lands when displayed.
    @inline(__always)
    package func displayedPosition(x: Int, y: Int, in size: PixelSize) -> (x: Int, y: Int) {
        let w = size.width, h = size.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (h - 1 - y, x)
        case .rightMirrored: return (h - 1 - y, w - 1 - x)
        case .left: return (y, w - 1 - x)
        }
    }

    /// The stored-pixel rectangle that displays as `rect` (displayed coordinates) in an image stored at
    /// `storedSize`: the inverse of this orientation applied to a rectangle. Fractional edges are kept.
    package func storedRect(for rect: FractionalRect, storedSize: PixelSize) -> FractionalRect {
        let w = Double(storedSize.width), h = Double(storedSize.height)
        switch self {
        case .up: return rect
        case .upMirrored:
            return FractionalRect(x: w - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
        case .down:
            return FractionalRect(
                x: w - rect.x - rect.width, y: h - rect.y - rect.height, width: rect.width, height: rect.height)
        case .downMirrored:
            return FractionalRect(x: rect.x, y: h - rect.y - rect.height, width: rect.width, height: rect.height)
        case .leftMirrored: return rect.transposed
        case .right:
            return FractionalRect(x: rect.y, y: h - rect.x - rect.width, width: rect.height, height: rect.width)
        case .rightMirrored:
            return FractionalRect(
                x: w - rect.y - rect.height, y: h - rect.x - rect.width, width: rect.height, height: rect.width)
        case .left:
            return FractionalRect(x: w - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        }
    }
}
