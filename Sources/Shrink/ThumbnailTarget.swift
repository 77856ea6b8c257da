/// The size a thumbnail is asked for, in displayed (oriented) pixels.
public enum ThumbnailTarget: Sendable, Hashable {
    /// How an image fills a box.
    public enum Fit: String, Sendable, CaseIterable {
        /// Scale to fit inside the box, keeping the aspect ratio; one side may be shorter.
        case inside
        /// Scale to cover the box and crop the centre: the result is exactly the box.
        case cover
    }

    /// The whole image at its displayed size.
    case original
    /// The long side becomes `n` (like `kCGImageSourceThumbnailMaxPixelSize`).
    case maxPixelSize(Int)
    /// A `width × height` box, filled as `fit` says.
    case box(Size, fit: Fit)
}
