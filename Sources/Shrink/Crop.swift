import ShrinkCore

/// A crop sized against the image it is applied to, placed by a ``Gravity``: what a URL such as imgproxy's
/// `c:W:H:G` asks for before the header is known. A side of 1 or more is pixels, between 0 and 1 a fraction
/// of the displayed side, 0 the whole side; a side larger than the image is cut to it.
public struct Crop: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var gravity: Gravity

    public init(width: Double, height: Double, gravity: Gravity = .centre) {
        self.width = width.isFinite ? max(0, width) : 0
        self.height = height.isFinite ? max(0, height) : 0
        self.gravity = gravity
    }

    /// The crop in a `displayed` image's coordinates.
    public func rect(in displayed: Size) -> Rect {
        func side(_ v: Double, _ full: Int) -> Double {
            let f = Double(full)
            if v == 0 { return f }
            return min(f, v < 1 ? (v * f).rounded() : v.rounded(.down))
        }
        let w = max(1, side(width, displayed.width)), h = max(1, side(height, displayed.height))
        return Rect(x: gravity.origin(window: w, in: Double(displayed.width), fraction: gravity.x),
                    y: gravity.origin(window: h, in: Double(displayed.height), fraction: gravity.y), width: w, height: h)
    }

    /// `W:H:x:y`: the key spelling.
    var keyValue: String { "\(width):\(height):\(gravity.keyValue)" }
}
