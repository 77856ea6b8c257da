/// The colour model an image is stored in.
public enum ColorModel: String, Sendable, CaseIterable {
    /// One luma channel.
    case gray
    /// Luma and alpha.
    case grayAlpha
    /// Luma and two chroma channels (JPEG, HEIF, AVIF, lossy WebP).
    case yCbCr = "YCbCr"
    /// Red, green and blue.
    case rgb = "RGB"
    /// Red, green, blue and alpha.
    case rgba = "RGBA"
    /// Printing ink: cyan, magenta, yellow and black (Adobe JPEGs), converted to RGB as decoded.
    case cmyk = "CMYK"
    /// CMYK stored as YCbCr plus black (Adobe JPEGs), converted to RGB as decoded.
    case ycck = "YCCK"
    /// Indices into a colour table (PNG, GIF), expanded to RGB or RGBA as decoded.
    case palette

    /// True for CMYK and YCCK: printing ink, which must become RGB before it can be shown.
    public var isInk: Bool { self == .cmyk || self == .ycck }
}
