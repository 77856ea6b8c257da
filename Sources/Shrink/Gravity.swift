/// Where a cover fit (``ThumbnailTarget/Fit/cover``) or a ``ImageRequest/Crop`` keeps its window when it cuts the image
/// (and where an image sits in a grown canvas, ``CanvasExtension``): a point in the displayed image as fractions of
/// its width and height, the window placed so that the point sits at the same fraction of the window, or, for a
/// ``focus(x:y:)`` point, at the window's centre; then moved by the offsets; always clamped inside the image.
/// `(0.5, 0.5)`, the centre, by default.
public struct Gravity: Sendable, Hashable {
    /// 0 = left edge, 1 = right edge.
    public var x: Double
    /// 0 = top edge, 1 = bottom edge.
    public var y: Double
    /// Moves the window away from the gravity's edge (right for a centred or focus gravity), in pixels of the result,
    /// or as a fraction of the side when below 1 in magnitude (imgproxy's gravity offsets). 0 by default.
    public var offsetX = 0.0
    /// As ``offsetX``, down (away from the top or bottom edge).
    public var offsetY = 0.0
    /// The window is centred on the point (imgproxy's `fp`) instead of placing it at the same fraction.
    public var centresOnPoint = false
    /// The window is placed by the image's content (``attention``); the point and offsets are not used.
    public var findsAttention = false
    /// ``x`` and ``y`` are pixels of the displayed image, not fractions (``focus(pixelX:pixelY:)``).
    public var inPixels = false

    /// A point at fractions `x`, `y` (clamped to 0…1; NaN is the centre).
    public init(x: Double, y: Double) {
        self.x = x.isNaN ? 0.5 : min(1, max(0, x))
        self.y = y.isNaN ? 0.5 : min(1, max(0, y))
    }

    /// A focus point at fractions `x`, `y`: the window centred on it as far as the image allows.
    public static func focus(x: Double, y: Double) -> Gravity {
        var g = Gravity(x: x, y: y)
        g.centresOnPoint = true
        return g
    }

    /// The window placed where libvips' "attention" strategy places it (imgproxy's `g:sm`, `vipsthumbnail --smartcrop
    /// attention`): edges, skin tones and saturated colours of the image reduced to cover the box, averaged,
    /// blurred, and the window centred on the strongest place. A cover or fill then decodes the whole frame at its
    /// cover size instead of only the window.
    public static let attention: Gravity = {
        var g = Gravity.centre
        g.findsAttention = true
        return g
    }()

    /// A focus point at pixel (`x`, `y`) of the displayed image (thumbor's `focal()`): the window centred on it as far
    /// as the image allows.
    public static func focus(pixelX x: Double, pixelY y: Double) -> Gravity {
        var g = Gravity.centre
        (g.x, g.y) = (x.isFinite ? max(0, x) : 0, y.isFinite ? max(0, y) : 0)
        (g.centresOnPoint, g.inPixels) = (true, true)
        return g
    }

    /// This gravity moved by `x`, `y` (``offsetX``, ``offsetY``).
    public func offset(x: Double, y: Double) -> Gravity {
        var g = self
        (g.offsetX, g.offsetY) = (x.isFinite ? x : 0, y.isFinite ? y : 0)
        return g
    }

    /// The middle: what a cover fit keeps by default.
    public static let centre = Gravity(x: 0.5, y: 0.5)
    /// The top edge, centred across.
    public static let north = Gravity(x: 0.5, y: 0)
    /// The bottom edge, centred across.
    public static let south = Gravity(x: 0.5, y: 1)
    /// The right edge, centred down.
    public static let east = Gravity(x: 1, y: 0.5)
    /// The left edge, centred down.
    public static let west = Gravity(x: 0, y: 0.5)
    /// The top right corner.
    public static let northEast = Gravity(x: 1, y: 0)
    /// The top left corner.
    public static let northWest = Gravity(x: 0, y: 0)
    /// The bottom right corner.
    public static let southEast = Gravity(x: 1, y: 1)
    /// The bottom left corner.
    public static let southWest = Gravity(x: 0, y: 1)

    /// The origin across of a `window` wide cut from `length`, where a pixel of the result is `scale` of the
    /// length's (pixel offsets are divided by it).
    func originX(window: Double, in length: Double, scale: Double = 1) -> Double {
        origin(window: window, in: length, fraction: x, offset: offsetX, scale: scale)
    }

    /// As ``originX(window:in:scale:)``, down.
    func originY(window: Double, in length: Double, scale: Double = 1) -> Double {
        origin(window: window, in: length, fraction: y, offset: offsetY, scale: scale)
    }

    private func origin(window: Double, in length: Double, fraction: Double, offset: Double, scale: Double) -> Double {
        let free = max(0, length - window)
        let shift = abs(offset) < 1 ? offset * length : offset / scale
        let point = inPixels ? fraction : length * fraction
        let at = centresOnPoint ? point - window / 2 + shift : free * fraction + (fraction > 0.5 ? -shift : shift)
        return min(free, max(0, at))
    }

    /// `x:y` with up to four decimals: the key spelling.
    var keyValue: String {
        func f(_ v: Double) -> String {
            let r = (v * 10_000).rounded() / 10_000
            return r == r.rounded() ? String(Int(r)) : String(r)
        }
        if findsAttention { return "attention" }
        let moved = offsetX != 0 || offsetY != 0 ? "+\(f(offsetX)),\(f(offsetY))" : ""
        return "\(centresOnPoint ? "fp" : "")\(inPixels ? "px" : "")\(f(x)):\(f(y))\(moved)"
    }
}
