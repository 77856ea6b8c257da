/// A rectangle in whole pixels of the displayed image (after EXIF orientation, as a user sees it): the
/// region of ``PixelSize``'s world. A region a decode is asked for must lie inside the image and be at
/// least 1×1.
///
/// ```swift
/// let face = try source.image(.maxPixelSize(128), region: PixelRect(x: 100, y: 200, width: 512, height: 512))
/// ```
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The left edge, in pixels from the image's left.
    public var x: Int
    /// The top edge, in pixels from the image's top.
    public var y: Int
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// A rectangle from its top-left corner and its size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of an image of `size`.
    public init(_ size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// The rectangle's size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// True when the rectangle is at least 1×1 and lies inside an image of `size` (no arithmetic that can
    /// overflow, whatever the values).
    public func isInside(_ size: PixelSize) -> Bool {
        width >= 1 && height >= 1 && x >= 0 && y >= 0 && width <= size.width && height <= size.height
            && x <= size.width - width && y <= size.height - height
    }

    /// `"x,y,width,height"`.
    public var description: String { "\(x),\(y),\(width),\(height)" }
}
