import ShrinkCore

/// How a result is encoded when the pipeline returns bytes (``ImagePipeline/encodedImage(for:as:)``): the
/// format and the settings that change its bytes. Every field takes part in cache keys, by name and value.
///
/// ```swift
/// let jpeg = OutputSettings(format: .jpeg, quality: 80)
/// let response = try await pipeline.encodedImage(for: request, as: jpeg)
/// ```
public struct OutputSettings: Sendable, Hashable {
    /// The format written: any format a registered codec writes (JPEG, PNG, WebP).
    public var format: ImageFormat
    /// Quality for lossy formats, 1–100. `80` by default.
    public var quality: Int
    /// JPEG only: progressive scans. `false` by default.
    public var progressive: Bool
    /// JPEG only: Huffman tables optimised for each image, for a file about 3 % smaller with the same pixels, at
    /// about three times the entropy coding's CPU and a buffer of every coefficient (3 bytes per pixel, counted in
    /// the encode's predicted bytes). `false` by default, as libvips writes; `shrink serve` turns it on for JPEG, as
    /// imgproxy does (its results are cached and served many times).
    public var optimizeCoding: Bool
    /// The colour transparent pixels are flattened onto for formats without alpha (JPEG). White by default.
    public var background: RGBColor
    /// Keep the ICC profile of the pixels (none after conversion to sRGB). `true` by default.
    public var keepICCProfile: Bool

    /// Settings for `format`; `quality` is clamped to 1–100.
    public init(
        format: ImageFormat, quality: Int = 80, progressive: Bool = false, optimizeCoding: Bool = false,
        background: RGBColor = .white, keepICCProfile: Bool = true
    ) {
        self.format = format
        self.quality = min(100, max(1, quality))
        self.progressive = progressive
        self.optimizeCoding = optimizeCoding
        self.background = background
        self.keepICCProfile = keepICCProfile
    }

    /// The fields as `name=value` pairs, one spelling per value: what cache keys are made of.
    package var keyFields: [(String, String)] {
        [
            ("f", format.name), ("q", String(quality)), ("prog", progressive ? "1" : "0"),
            ("opt", optimizeCoding ? "1" : "0"),
            ("bg", background.hex), ("icc", keepICCProfile ? "1" : "0"),
        ]
    }
}
