/// The size a thumbnail is asked for, in displayed (oriented) pixels.
public enum ThumbnailTarget: Sendable, Hashable, Codable {
    /// How an image fills a box.
    public enum Fit: String, Sendable, CaseIterable, Codable {
        /// Scale to fit inside the box, keeping the aspect ratio; one side may be shorter.
        case inside
        /// Scale to cover the box and crop the centre: the result is exactly the box.
        case cover
        /// ``fill`` when the image and the box are both landscape (or square) or both portrait, else ``inside``
        /// (imgproxy's `auto`): a portrait never loses its top and bottom to a landscape box.
        case auto
        /// As ``cover``, but a source smaller than the box on a side (without upscaling) keeps that side and is
        /// cropped to the box only where it is larger (imgproxy's `fill`; ``cover`` there is `fill-down`, which
        /// keeps the box's aspect ratio).
        case fill
        /// ``inside`` the box, or inside the box turned 90° when that one has the image's orientation (thumbor's
        /// `adaptive-fit-in`): the larger side of the image goes to the larger side of the box.
        case insideEitherWay
        /// Scaled, aspect ratio kept, to cover the box without cutting anything: one side is the box's, the other
        /// longer (thumbor's `full-fit-in`).
        case outside
        /// Exactly the box, the aspect ratio not kept (imgproxy's `force`). A side of 0 keeps the source's; without
        /// upscaling, both sides shrink by the same factor until neither enlarges the source.
        case stretch
    }

    /// The whole image at its displayed size.
    case original
    /// The long side becomes `n` (like `kCGImageSourceThumbnailMaxPixelSize`).
    case maxPixelSize(Int)
    /// A `width × height` box, filled as `fit` says.
    case box(PixelSize, fit: Fit)
    /// Exactly the decoder's own 1/`n` scale (JPEG DCT scaling: 2, 4 or 8; 1 is the full size) with no
    /// resampling, oriented: the fastest thumbnail, and what `djpeg -scale 1/n` produces. Codecs that cannot
    /// scale while decoding accept only 1.
    case prescale(Int)

    /// The box's fit for a box target; nil for the others.
    package var fit: Fit? {
        if case .box(_, let fit) = self { return fit }
        return nil
    }

    /// The largest side a target may ask for (2³⁰): larger values are `.invalidArgument` before any
    /// arithmetic, so no size derived from a target can overflow. (Outputs are further bounded by
    /// ``ImageLimits/maxPixels``.)
    public static let maxSide = 1 << 30
}
