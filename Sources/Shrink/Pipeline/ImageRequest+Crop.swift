import ShrinkCore

extension ImageRequest {
    /// A crop sized against the image it is applied to, placed by a ``Gravity``: what a URL such as imgproxy's
    /// `c:W:H:G` asks for before the header is known. A side of 1 or more is pixels, between 0 and 1 a fraction
    /// of the displayed side, 0 the whole side; a side larger than the image is cut to it.
    public struct Crop: Sendable, Hashable {
        /// The width: pixels when 1 or more, a fraction of the displayed width between 0 and 1, the whole width at 0.
        public var width: Double
        /// The height, read as ``width`` is.
        public var height: Double
        /// Where the crop sits when it is smaller than the image.
        public var gravity: Gravity

        /// A crop of `width × height` placed by `gravity` (negative and non-finite sides read as 0: the whole side).
        public init(width: Double, height: Double, gravity: Gravity = .centre) {
            self.width = width.isFinite ? max(0, width) : 0
            self.height = height.isFinite ? max(0, height) : 0
            self.gravity = gravity
        }

        /// The crop in a `displayed` image's coordinates.
        package func rect(in displayed: PixelSize) -> FractionalRect {
            func side(_ v: Double, _ full: Int) -> Double {
                let f = Double(full)
                if v == 0 { return f }
                return min(f, v < 1 ? (v * f).rounded() : v.rounded(.down))
            }
            let w = max(1, side(width, displayed.width)), h = max(1, side(height, displayed.height))
            return FractionalRect(
                x: gravity.originX(window: w, in: Double(displayed.width)),
                y: gravity.originY(window: h, in: Double(displayed.height)), width: w, height: h)
        }

        /// `W:H:x:y`: the key spelling.
        var keyValue: String { "\(width):\(height):\(gravity.keyValue)" }
    }
}
