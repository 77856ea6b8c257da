import ShrinkCore

/// How a HEIF item's pixels are coded: an HEVC image (HEIC, decoded by libde265) or an AV1 image (AVIF,
/// decoded by dav1d), with its decoder configuration.
package enum HEIFCoding: Sendable, Equatable {
    case hevc(HEVCConfiguration)
    case av1(AV1Configuration)

    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    package var chromaFormat: Int {
        switch self {
        case .hevc(let c): c.chromaFormat
        case .av1(let c): c.chromaFormat
        }
    }

    /// Chroma samples per luma sample's step, across and down: 2 for 4:2:0 both ways, 2 across for 4:2:2, else 1.
    package var subsampling: (x: Int, y: Int) {
        switch chromaFormat {
        case 1: (2, 2)
        case 2: (2, 1)
        default: (1, 1)
        }
    }

    /// Bits per luma sample as coded.
    package var bitDepth: Int {
        switch self {
        case .hevc(let c): c.bitDepthLuma
        case .av1(let c): c.bitDepth
        }
    }

    /// `HEVC` or `AV1`.
    package var codecName: String {
        switch self {
        case .hevc: "HEVC"
        case .av1: "AV1"
        }
    }

    /// The library that decodes it, with its version: `libde265 1.0.11`, `dav1d 1.0.0`.
    package var decoderName: String {
        switch self {
        case .hevc: HEVCDecoder.name
        case .av1: AV1Decoder.name
        }
    }

    /// Whether two tiles can share a grid: same codec, chroma format and depth.
    func matches(_ other: HEIFCoding) -> Bool {
        codecName == other.codecName && chromaFormat == other.chromaFormat && bitDepth == other.bitDepth
    }
}
