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
    /// `"WxH"`.
    public var description: String { "\(width)x\(height)" }
}
