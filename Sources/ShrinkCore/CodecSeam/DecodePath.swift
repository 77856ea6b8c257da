/// What machinery a decode runs on, named for what happens rather than for the library that does it
/// (reported by `--json` as `path` and in telemetry). Open: a codec adds its own with
/// `extension DecodePath { static let … = DecodePath("…") }`; the shared vocabulary is here.
public struct DecodePath: Sendable, Hashable, CustomStringConvertible {
    /// The name printed in reports, e.g. `dctScaledRows`.
    public let name: String

    /// A path named `name` (a codec of an app's own names its machinery this way).
    public init(_ name: String) { self.name = name }

    public var description: String { name }

    /// Rows streamed at full size as they are decoded, nothing buffered (non-interlaced PNG).
    public static let rows = DecodePath("rows")
    /// Rows streamed as the codec's DCT scaling makes them at 1/1–1/8 (baseline JPEG).
    public static let dctScaledRows = DecodePath("dctScaledRows")
    /// Y, Cb, Cr planes streamed as the DCT scaling makes them, no colour conversion (baseline JPEG into YUV).
    public static let dctScaledPlanes = DecodePath("dctScaledPlanes")
    /// The whole image's DCT coefficients buffered, then rows at 1/1–1/8 (progressive or multi-scan JPEG).
    public static let coefficientBuffer = DecodePath("coefficientBuffer")
    /// Only the DC coefficients (plus what 4:2:0 chroma needs), one block per output pixel: 1/8 of a
    /// progressive JPEG without its coefficient buffer.
    public static let dcFirst = DecodePath("dcFirst")
    /// Each block's DC coefficient kept and its AC coefficients skipped as they are entropy-decoded: 1/8 of a
    /// baseline JPEG as Y, Cb, Cr planes, by Shrink's own decoder (the same planes as libjpeg's, for less CPU).
    public static let dcOnly = DecodePath("dcOnly")
    /// Interlaced passes summed into a grid of the reduced size (Adam7 PNG).
    public static let interlacedPasses = DecodePath("interlacedPasses")
    /// Decoded by the codec's own scaler to any size, delivered as Y, Cb, Cr planes (lossy WebP).
    public static let scaledPlanes = DecodePath("scaledPlanes")
    /// Decoded by the codec's own scaler to any size, delivered as rows (lossy WebP with alpha).
    public static let scaledRows = DecodePath("scaledRows")
    /// The whole image held at full size before the first row, because the format decodes no other way
    /// (lossless WebP).
    public static let wholeImage = DecodePath("wholeImage")
    /// The first frame of an animation, its rows streamed onto the canvas (GIF).
    public static let firstFrameRows = DecodePath("firstFrameRows")
    /// A small preview the file carries (an EXIF thumbnail), decoded instead of the image.
    public static let embeddedThumbnail = DecodePath("embeddedThumbnail")
}

extension DecodePath {
    /// An animation's frames composited one at a time on the codec's canvas, each streamed as rows into the
    /// resampler (GIF, animated WebP).
    public static let animationFrames = DecodePath("animationFrames")
}
