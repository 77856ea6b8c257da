/// What colour management did to one image, for telemetry and `--json`.
public struct ColorConversion: Sendable, Equatable {
    /// The source profile's description ("sRGB" for an untagged image).
    public let from: String
    /// "sRGB" or "Display P3"; equal to `from` when nothing was converted.
    public let to: String
    /// True when pixels were transformed (false for an untagged or sRGB-equivalent source, or `keep`).
    public let converted: Bool
    /// Time spent transforming pixels (and building the transform, the first time), in milliseconds.
    public let milliseconds: Double

    /// A report of a conversion from profile `from` to `to` (for fakes and tests; decodes make their own).
    public init(from: String, to: String, converted: Bool, milliseconds: Double) {
        self.from = from
        self.to = to
        self.converted = converted
        self.milliseconds = milliseconds
    }

    /// "Display P3 → sRGB (0.4 ms)", or "sRGB (unchanged)".
    public var summary: String {
        converted ? "\(from) → \(to) (\((milliseconds * 10).rounded() / 10) ms)" : "\(from) (unchanged)"
    }
}
