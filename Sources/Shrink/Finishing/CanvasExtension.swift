/// A canvas grown around an image (``Finishing/extend``, ``Finishing/extendToAspectRatio``): to a size (or an
/// aspect ratio's terms), the image placed in it by a gravity (with its offsets) as a window would be cut.
public struct CanvasExtension: Sendable, Hashable {
    /// The width and height to grow to (0: the image's), or an aspect ratio's terms.
    public var size: PixelSize
    /// Where the image sits in the grown canvas (``Gravity/centre`` by default).
    public var gravity: Gravity

    /// A canvas of `size` with the image placed by `gravity`.
    public init(size: PixelSize, gravity: Gravity = .centre) {
        self.size = size
        self.gravity = gravity
    }

    var isValid: Bool {
        size.width >= 0 && size.height >= 0 && size.width <= ThumbnailTarget.maxSide
            && size.height <= ThumbnailTarget.maxSide && gravity.offsetX.isFinite && gravity.offsetY.isFinite
    }

    /// The image's origin when an `image`-sized one sits in `canvas`.
    func origin(of image: PixelSize, in canvas: PixelSize) -> (x: Int, y: Int) {
        (
            Int(gravity.originX(window: Double(image.width), in: Double(canvas.width)).rounded()),
            Int(gravity.originY(window: Double(image.height), in: Double(canvas.height)).rounded())
        )
    }

    var keyValue: String { "\(size.width)x\(size.height)@\(gravity.keyValue)" }
}
