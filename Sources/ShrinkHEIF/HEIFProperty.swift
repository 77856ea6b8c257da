/// One item property of a HEIF/AVIF file (`ipco`), parsed where Shrink uses it; others keep their type.
package enum HEIFProperty: Sendable, Equatable {
    /// `ispe`: the image's width and height.
    case size(width: Int, height: Int)
    /// `hvcC`: the HEVC decoder configuration (its payload's place in the file).
    case hevcConfiguration(Range<Int>)
    /// `av1C`: the AV1 decoder configuration.
    case av1Configuration(Range<Int>)
    /// `colr`.
    case color(HEIFColor)
    /// `pixi`: bits per channel.
    case bitsPerChannel([Int])
    /// `irot`: rotation anticlockwise, in degrees (0, 90, 180, 270).
    case rotation(Int)
    /// `imir`: 0 mirrors top to bottom (about a horizontal axis), 1 left to right (about a vertical axis).
    case mirror(axis: Int)
    /// `clap`: a clean aperture, as width, height and centre offsets (fractions, numerator/denominator).
    case cleanAperture(width: Fraction, height: Fraction, horizontalOffset: Fraction, verticalOffset: Fraction)
    /// `auxC`: what an auxiliary image is (`urn:mpeg:mpegB:cicp:systems:auxiliary:alpha`, a depth map…).
    case auxiliaryType(String)
    /// Any other property, by type.
    case other(String)

    /// A fraction of two 32-bit fields (the numerator signed for offsets).
    package struct Fraction: Sendable, Equatable {
        package let numerator: Int
        package let denominator: Int
        package var value: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
    }
}
