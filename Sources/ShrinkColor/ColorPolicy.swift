/// What happens to an image's colours on the way out.
public enum ColorPolicy: String, Sendable, CaseIterable {
    /// Convert from the image's profile to sRGB and embed no profile: what a browser shows for an untagged
    /// image, so every viewer shows the same colours. Images without a profile, or with an sRGB one, are left
    /// alone. The default.
    case sRGB = "srgb"
    /// Leave the pixels as decoded and embed the source profile in the output (JPEG APP2).
    case keep
    /// Convert to Display P3 and embed its profile: the same bytes per pixel as sRGB, a wider gamut.
    case displayP3 = "display-p3"
}
