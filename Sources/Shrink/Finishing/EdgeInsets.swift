/// Widths added on each side of an image, in output pixels (``Finishing/padding``).
public struct EdgeInsets: Sendable, Hashable {
    /// Above.
    public var top: Int
    /// Right of it.
    public var right: Int
    /// Below.
    public var bottom: Int
    /// Left of it.
    public var left: Int

    /// Insets of these widths (none by default).
    public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// True when nothing is added.
    public var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }

    var isValid: Bool {
        [top, right, bottom, left].allSatisfy { (0...ThumbnailTarget.maxSide).contains($0) }
    }
}
