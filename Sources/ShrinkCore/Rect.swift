/// A rectangle in source pixel coordinates; fractional edges are allowed (a centre crop of an odd size).
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of an image of `size`.
    public init(_ size: Size) {
        self.init(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    }

    /// The same rectangle with x/y and width/height swapped (a transpose).
    public var transposed: Rect { Rect(x: y, y: x, width: height, height: width) }
}
