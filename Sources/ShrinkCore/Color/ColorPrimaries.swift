/// The chromaticities (CIE xy) of a colour space's white point and red, green and blue primaries.
package struct ColorPrimaries: Sendable, Hashable {
    package var white: [Double]
    package var red: [Double]
    package var green: [Double]
    package var blue: [Double]
    /// A short name ("BT.2020", "Display P3").
    package var name: String

    package init(white: [Double], red: [Double], green: [Double], blue: [Double], name: String) {
        (self.white, self.red, self.green, self.blue, self.name) = (white, red, green, blue, name)
    }

    static let d65 = [0.3127, 0.3290]
    /// BT.709's, which sRGB shares.
    package static let bt709 = ColorPrimaries(
        white: d65, red: [0.64, 0.33], green: [0.30, 0.60], blue: [0.15, 0.06], name: "BT.709")

    /// The primaries of an ITU-T H.273 colour primaries code: 1 BT.709, 4 BT.470M, 5 BT.601 625, 6 BT.601 525,
    /// 7 SMPTE 240M, 9 BT.2020, 11 DCI-P3, 12 Display P3, 22 EBU 3213; nil for 2 (unspecified) and the rest.
    package static func h273(_ code: Int) -> ColorPrimaries? {
        switch code {
        case 1: bt709
        case 4:
            ColorPrimaries(
                white: [0.310, 0.316], red: [0.67, 0.33], green: [0.21, 0.71], blue: [0.14, 0.08], name: "BT.470M")
        case 5:
            ColorPrimaries(
                white: d65, red: [0.64, 0.33], green: [0.29, 0.60], blue: [0.15, 0.06], name: "BT.601 625")
        case 6, 7:
            ColorPrimaries(
                white: d65, red: [0.630, 0.340], green: [0.310, 0.595], blue: [0.155, 0.070],
                name: code == 6 ? "BT.601 525" : "SMPTE 240M")
        case 9:
            ColorPrimaries(
                white: d65, red: [0.708, 0.292], green: [0.170, 0.797], blue: [0.131, 0.046], name: "BT.2020")
        case 11:
            ColorPrimaries(
                white: [0.314, 0.351], red: [0.680, 0.320], green: [0.265, 0.690], blue: [0.150, 0.060], name: "DCI-P3")
        case 12:
            ColorPrimaries(
                white: d65, red: [0.680, 0.320], green: [0.265, 0.690], blue: [0.150, 0.060], name: "Display P3")
        case 22:
            ColorPrimaries(
                white: d65, red: [0.630, 0.340], green: [0.295, 0.605], blue: [0.155, 0.077], name: "EBU 3213")
        default: nil
        }
    }

    /// Kr and Kb of the luma these primaries give (H.273's chromaticity-derived matrices 12 and 13): the
    /// luminance of red and of blue when white has luminance 1.
    package var lumaCoefficients: (kr: Double, kb: Double) {
        func xyz(_ p: [Double]) -> [Double] { [p[0] / p[1], 1, (1 - p[0] - p[1]) / p[1]] }
        let r = xyz(red), g = xyz(green), b = xyz(blue), w = xyz(white)
        // Solve [r g b] · s = w for the scales s (Cramer's rule); luminance of each primary is its s.
        func det(_ a: [Double], _ b: [Double], _ c: [Double]) -> Double {
            a[0] * (b[1] * c[2] - b[2] * c[1]) - b[0] * (a[1] * c[2] - a[2] * c[1]) + c[0] * (a[1] * b[2] - a[2] * b[1])
        }
        let d = det(r, g, b)
        guard d != 0 else { return (0.2126, 0.0722) }
        return (det(w, g, b) / d, det(r, g, w) / d)
    }
}
