/// How a result is encoded: the format and the settings that change its bytes, whatever writes them (the
/// pipeline's `ImagePipeline.encodedImage(for:as:)`, the CLI, the server). Each format's writer reads the
/// settings that apply to it and ignores the others. Every field that is not at its
/// default takes part in cache keys, by name and value.
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
    /// JPEG only: Huffman tables optimised for each image, for a smaller file with the same pixels, at the cost of a
    /// second entropy-coding pass and a buffer of every coefficient (3 bytes per pixel, counted in the encode's
    /// predicted bytes; sizes and CPU: BENCHMARKS.md, "Figures behind the code"). `false` by default, as libvips
    /// writes; `shrink serve` turns it on for JPEG, as imgproxy does (its results are cached and served many times).
    public var optimizeCoding: Bool
    /// The colour transparent pixels are flattened onto for formats without alpha (JPEG). White by default.
    public var background: RGBColor
    /// Keep the ICC profile of the pixels (none after conversion to sRGB). `true` by default.
    public var keepICCProfile: Bool
    /// Formats that have a lossless mode (WebP): use it. `false` by default.
    public var lossless: Bool
    /// JPEG: full-resolution chroma (4:4:4) instead of 4:2:0. `false` by default.
    public var chroma444: Bool
    /// Formats with a deflate level (PNG): 0–9; nil for the format's own default.
    public var compressionLevel: Int?
    /// Formats with a choice of sample depth (PNG): 8 or 16; nil for the depth of the pixels.
    public var bitDepth: Int?
    /// Keep the EXIF block (its orientation reset to 1, as the pixels are upright). `false` by default: EXIF may
    /// hold GPS positions.
    public var keepEXIF: Bool
    /// Without ``keepEXIF``: keep the EXIF block's Copyright and Artist alone (imgproxy's `keep_copyright`). `false` by
    /// default.
    public var keepCopyright: Bool
    /// A lossy result's largest size in bytes (imgproxy's `mb`): the quality is lowered, by a bounded search of at
    /// most ``maxBytesEncodes`` encodes, to the highest that fits (the lowest tried when none does). nil by default.
    public var maxBytes: Int?
    /// Options one format defines for itself, by name (PNG's `filter`: the format's writer lists them with their
    /// values). Empty by default.
    public var formatOptions: [String: String]

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
        self.lossless = false
        self.chroma444 = false
        self.compressionLevel = nil
        self.bitDepth = nil
        self.keepEXIF = false
        self.formatOptions = [:]
        self.maxBytes = nil
        self.keepCopyright = false
    }

    /// The most encodes a ``maxBytes`` search makes (a binary search of 1–100 needs 7).
    public static let maxBytesEncodes = 7

    /// The fields as `name=value` pairs, one spelling per value: what cache keys are made of. The first six
    /// always; the others only when they are not at their defaults, so that keys made before they existed stay.
    package var keyFields: [(String, String)] {
        var fields = [
            ("f", format.name), ("q", String(quality)), ("prog", progressive ? "1" : "0"),
            ("opt", optimizeCoding ? "1" : "0"), ("bg", background.hex), ("icc", keepICCProfile ? "1" : "0"),
        ]
        if lossless { fields.append(("lossless", "1")) }
        if chroma444 { fields.append(("c444", "1")) }
        if let compressionLevel { fields.append(("z", String(compressionLevel))) }
        if let bitDepth { fields.append(("depth", String(bitDepth))) }
        if keepEXIF { fields.append(("exif", "1")) }
        if let maxBytes { fields.append(("mb", String(maxBytes))) }
        if keepCopyright && !keepEXIF { fields.append(("kcr", "1")) }
        for (name, value) in formatOptions.sorted(by: { $0.key < $1.key }) { fields.append(("o." + name, value)) }
        return fields
    }
}
