/// Surrounding background cut away before the target applies (imgproxy's `trim`, thumbor's `trim/`): the smallest
/// rectangle holding every pixel that differs from the background by more than ``threshold`` on some channel.
///
/// The borders are found on a reduced decode of the image (at most ``previewSide`` pixels on its long side), then
/// the trimmed region is decoded as any region is: the full-size image is never held, unlike libvips' `find_trim`,
/// and the cut is exact to a pixel of that reduced decode.
public struct Trim: Sendable, Hashable {
    /// Which pixel names the background when ``color`` does not.
    public enum Corner: String, Sendable, Hashable {
        /// The top-left pixel (imgproxy's and thumbor's default).
        case topLeft
        /// The bottom-right pixel (thumbor's `trim:bottom-right`).
        case bottomRight
    }

    /// How far (0–255, on any channel) a pixel may differ from the background and still be background. 10 by
    /// default, as libvips'.
    public var threshold: Int
    /// The background's colour; nil: the colour of ``corner``'s pixel.
    public var color: RGBColor?
    /// The pixel that names the background when ``color`` is nil. The top left by default.
    public var corner: Corner
    /// Cut as much from the left as from the right (the smaller of the two).
    public var equalHorizontal: Bool
    /// Cut as much from the top as from the bottom (the smaller of the two).
    public var equalVertical: Bool

    /// A trim with the defaults above, or the values given.
    public init(
        threshold: Int = 10, color: RGBColor? = nil, corner: Corner = .topLeft, equalHorizontal: Bool = false,
        equalVertical: Bool = false
    ) {
        self.threshold = threshold
        self.color = color
        self.corner = corner
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
    }

    /// The long side of the reduced decode the borders are found on.
    public static let previewSide = 1024

    var keyValue: String {
        "\(threshold),\(color?.hex ?? corner.rawValue),\(equalHorizontal ? 1 : 0)\(equalVertical ? 1 : 0)"
    }
}
