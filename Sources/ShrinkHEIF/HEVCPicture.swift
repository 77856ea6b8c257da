import ShrinkCore

/// One decoded HEVC picture, copied out of libde265: Y, Cb and Cr planes at their own sizes (chroma halved
/// per the chroma format), 8-bit samples (deeper pictures are shifted down), and the colour signalled in
/// the bitstream's VUI. Costs its planes (1.5 B/px for 4:2:0).
public struct HEVCPicture: Sendable {
    /// Plane sizes (Y, Cb, Cr; one plane for monochrome).
    public let sizes: [Size]
    /// The planes, rows packed (`sizes[i].width` apart).
    public let planes: [[UInt8]]
    /// Bits per sample as coded.
    public let bitDepth: Int
    /// VUI colour: full range, and matrix coefficients (H.273; 2 = unspecified).
    public let fullRange: Bool
    public let matrix: Int
}
