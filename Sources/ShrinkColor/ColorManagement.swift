import ShrinkCore

/// Colour management of finished pixels: the image's ICC profile to sRGB (or Display P3), at the output's size
/// — a 400×300 thumbnail costs well under a millisecond, where the same transform at 12 MP costs about 100 ms.
/// Transforms come from ``ColorTransformCache/shared``. An untagged image is taken to be sRGB; a profile lcms2
/// cannot read, or one for other data (a CMYK profile on RGB pixels), is a warning and the pixels are left as
/// they are.
public enum ColorManagement {
    /// Converts `pixels` (decoded from an image tagged with `profile`) in place as `policy` says. Gray pixels go
    /// to gray with sRGB's curve (and embed nothing); formats other than gray8, grayAlpha8, rgb8, rgba8 and
    /// rgba16 are converted through rgb8 or rgba8 and back (``extraBytes(for:size:)``); alpha8 masks are left alone.
    public static func apply(_ policy: ColorPolicy, to pixels: inout PixelBuffer, profile: [UInt8]?) -> ColorManagementResult {
        let gray = pixels.format == .gray8 || pixels.format == .grayAlpha8
        func unchanged(_ name: String, warning: String? = nil) -> ColorManagementResult {
            let embedded: [UInt8]? = policy == .keep ? profile : nil
            return ColorManagementResult(profile: embedded,
                                      conversion: policy == .keep ? nil : ColorConversion(from: name, to: name, converted: false, milliseconds: 0),
                                      warning: warning)
        }
        if policy == .keep || pixels.format == .alpha8 { return unchanged("") }
        let target = gray ? "gray (sRGB curve)" : policy == .displayP3 ? "Display P3" : "sRGB"
        var source = profile, name = "sRGB", warning: String?
        if let bytes = profile {
            if let described = ColorProfile(bytes) {
                name = described.name.isEmpty ? "unnamed ICC profile" : described.name
                if gray && described.space == .rgb {
                    return unchanged(name)                  // gray asked of a colour image: its luma, nothing to convert
                }
                if described.space != (gray ? .gray : .rgb) {
                    warning = "the ICC profile (\(name)) is for \(described.space.rawValue) data, not \(pixels.format) pixels: not applied"
                    source = nil
                }
            } else {
                warning = "the ICC profile (\(bytes.count) B) cannot be read: treated as sRGB"
                source = nil
            }
        }
        if source == nil && (policy == .sRGB || gray) { return unchanged(name, warning: warning) }
        let clock = ContinuousClock(), start = clock.now
        let direct = Self.transformsInPlace(pixels.format)
        let workFormat: PixelFormat = direct ? pixels.format : pixels.format.hasAlpha ? .rgba8 : .rgb8
        guard let transform = ColorTransformCache.shared.transform(from: source ?? ColorProfile.sRGB.bytes, format: workFormat, to: policy) else {
            return unchanged(name, warning: warning ?? "the ICC profile (\(name)) cannot be linked to \(target): not applied")
        }
        if transform.isIdentity && (policy == .sRGB || gray) { return unchanged(name, warning: warning) }
        if direct {
            let count = pixels.size.pixelCount
            pixels.bytes.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: count) }
        } else {
            var work = PixelConverter.convert(pixels, to: workFormat)
            let count = work.size.pixelCount
            work.bytes.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: count) }
            pixels = PixelConverter.convert(work, to: pixels.format)
        }
        let elapsed = clock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return ColorManagementResult(profile: policy == .displayP3 && !gray ? ColorProfile.displayP3.bytes : nil,
                                     conversion: ColorConversion(from: name, to: target, converted: true, milliseconds: ms), warning: warning)
    }

    /// True for the formats transformed where they lie: gray8, grayAlpha8, rgb8, rgba8, rgba16.
    static func transformsInPlace(_ format: PixelFormat) -> Bool {
        [.gray8, .grayAlpha8, .rgb8, .rgba8, .rgba16].contains(format)
    }

    /// The memory a conversion of `count` pixels of `format` adds to the image itself: nothing for the formats
    /// transformed in place, else an rgb8 or rgba8 copy and the converted-back result.
    public static func extraBytes(for format: PixelFormat, size: Size) -> Int {
        guard !transformsInPlace(format), format != .alpha8 else { return 0 }
        return (format.hasAlpha ? PixelFormat.rgba8 : .rgb8).byteCount(for: size) + format.byteCount(for: size)
    }
}
