/// Where a cover fit (``ThumbnailTarget/Fit/cover``) or a ``ImageRequest/Crop`` keeps its window when it cuts the image:
/// a point in the displayed image as fractions of its width and height, the window placed so that the point
/// sits at the same fraction of the window (clamped inside the image). `(0.5, 0.5)`, the centre, by default.
public struct Gravity: Sendable, Hashable {
    /// 0 = left edge, 1 = right edge.
    public var x: Double
    /// 0 = top edge, 1 = bottom edge.
    public var y: Double

    /// A focus point at fractions `x`, `y` (clamped to 0…1; NaN is the centre).
    public init(x: Double, y: Double) {
        self.x = x.isNaN ? 0.5 : min(1, max(0, x))
        self.y = y.isNaN ? 0.5 : min(1, max(0, y))
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

    /// The origin along one axis of a `window` long cut from `length`: the focus fraction of the free space.
    func origin(window: Double, in length: Double, fraction: Double) -> Double {
        max(0, length - window) * fraction
    }

    /// `x:y` with up to four decimals: the key spelling.
    var keyValue: String {
        func f(_ v: Double) -> String {
            let r = (v * 10_000).rounded() / 10_000
            return r == r.rounded() ? String(Int(r)) : String(r)
        }
        return "\(f(x)):\(f(y))"
    }
}
