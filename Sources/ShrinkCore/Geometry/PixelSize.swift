/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size of `width × height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width × height`.
    public var pixelCount: Int { width * height }
    /// The size with its axes swapped.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }
    /// True when this size has `other`'s shape: its width-to-height ratio within `tolerance` (a fraction; 1.5 % by
    /// default) of `other`'s. A reduced size of an image (an embedded thumbnail or preview) rounds its sides to
    /// whole pixels, so its ratio is near the image's, not equal to it; a size with no pixels has no shape.
    public func hasShape(of other: PixelSize, tolerance: Double = 0.015) -> Bool {
        guard width > 0, height > 0, other.width > 0, other.height > 0 else { return false }
        let ratio = Double(other.width) / Double(other.height)
        return abs(Double(width) / Double(height) - ratio) <= ratio * tolerance
    }

    /// `"WxH"`.
    public var description: String { "\(width)x\(height)" }
}
