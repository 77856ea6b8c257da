/// The colour model an image is stored in.
public enum ColorModel: String, Sendable, CaseIterable {
    case gray
    case grayAlpha
    case yCbCr = "YCbCr"
    case rgb = "RGB"
    case rgba = "RGBA"
    case cmyk = "CMYK"
    case ycck = "YCCK"
    case palette

    /// True for CMYK and YCCK: printing ink, which must become RGB (``InkConverting``) before it can be shown.
    public var isInk: Bool { self == .cmyk || self == .ycck }
}
