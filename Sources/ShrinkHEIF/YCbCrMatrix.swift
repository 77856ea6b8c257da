import ShrinkCore

/// The YCbCr matrices HEVC and AV1 signal (H.273 codes), for converting to RGB.
enum YCbCrMatrix {
    /// Kr and Kb of an H.273 matrix code: BT.709 (1), BT.2020 (9, 10), derived from the colour `primaries` code
    /// (12, 13: the constant-luminance 13 taken as non-constant), else BT.601 (5, 6, unspecified).
    static func coefficients(matrix: Int, primaries: Int) -> (kr: Double, kb: Double) {
        switch matrix {
        case 1: (0.2126, 0.0722)
        case 9, 10: (0.2627, 0.0593)
        case 12, 13: (ColorPrimaries.h273(primaries) ?? .bt709).lumaCoefficients
        default: (0.299, 0.114)
        }
    }

    /// True when planes coded with `matrix` are Shrink's yuv420 (BT.601) as they are.
    static func isBT601(_ matrix: Int) -> Bool { ![0, 1, 9, 10, 12, 13].contains(matrix) }

    /// True for the identity matrix (code 0): the planes hold green, blue and red (lossless AVIF's 4:4:4).
    static func isIdentity(_ matrix: Int) -> Bool { matrix == 0 }
}
