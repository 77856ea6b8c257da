/// A rectangle in source pixel coordinates with fractional edges (a centre crop of an odd size, a region
/// scaled to a decoder's 1/8): what the planner and the resampler work in. Users give whole-pixel
/// ``PixelRect``s.
public struct FractionalRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// A rectangle with these edges.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `rect`'s edges.
    public init(_ rect: PixelRect) {
        self.init(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
    }

    /// The whole of an image of `size`.
    public init(_ size: PixelSize) {
        self.init(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    }

    /// True when every coordinate is a finite number (no NaN or infinity).
    package var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// True when the rectangle is finite, at least 1×1, and lies inside an image of `size` (compared as
    /// doubles: no conversion of an untrusted value can trap).
    package func isInside(_ size: PixelSize) -> Bool {
        isFinite && width >= 1 && height >= 1 && x >= 0 && y >= 0
            && x + width <= Double(size.width) && y + height <= Double(size.height)
    }

    /// `"x,y,width,height"`, whole numbers without a fraction; NaN, infinities and huge values as they are.
    public var description: String {
        func text(_ v: Double) -> String {
            v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        }
        return [x, y, width, height].map(text).joined(separator: ",")
    }

    /// The same rectangle with x/y and width/height swapped (a transpose).
    package var transposed: FractionalRect { FractionalRect(x: y, y: x, width: height, height: width) }
}
