import ShrinkCore

/// What `Fuzz/`'s ICC harness runs, as an entry point (only through `@_spi(Fuzzing)` outside this package, so
/// the colour machinery stays `package`): ICC profiles from files, through lcms2: parsed (``ColorProfile``), then applied to a small image as rgb8,
/// gray8 and rgba16 (transformed in place) to sRGB and as yuv420 (through rgb8) to Display P3; as the CMYK
/// profile of ink (``InkConversion``); and the first bytes as coded colour (H.273 code points, PNG gamma and
/// chromaticities) made into an equivalent profile (``CodedColorProfiles``). Whatever lcms2 makes of the
/// bytes, the pixels keep their format and size, and a profile it cannot use is a warning.
@_spi(Fuzzing) public enum ColorFuzzing {
    private static let image = PixelBuffer(
        format: .rgba16, size: PixelSize(width: 7, height: 5),
        bytes: (0..<7 * 5 * 8).map { UInt8(truncatingIfNeeded: $0 &* 37) })

    /// Runs `bytes` as a profile through every use above; traps when pixels change format or size, or a
    /// conversion is not reported.
    public static func exercise(_ bytes: [UInt8]) {
        _ = ColorProfile(bytes)?.summary
        for (format, policy) in [
            (PixelFormat.rgb8, ColorPolicy.sRGB), (.gray8, .sRGB), (.rgba16, .sRGB), (.yuv420, .displayP3),
        ] {
            var pixels = PixelConverter.convert(image, to: format)
            let result = ColorManagement.apply(policy, to: &pixels, profile: bytes)
            precondition(
                pixels.format == format && pixels.size == image.size
                    && pixels.bytes.count == format.byteCount(for: image.size))
            precondition(result.conversion != nil)
        }
        let ink = ColorManagement.inkConversion(.sRGB, profile: bytes)
        let cmyk = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29) }
        var rgb = [UInt8](repeating: 0, count: 48)
        cmyk.withUnsafeBufferPointer { i in
            rgb.withUnsafeMutableBufferPointer {
                ink.convert(i.baseAddress!, inverted: bytes.count % 2 == 0, into: $0.baseAddress!, count: 16)
            }
        }
        precondition(ink.result.conversion != nil)
        guard bytes.count >= 8 else { return }
        let word = { (i: Int) in Double(Int(bytes[i]) << 8 | Int(bytes[i + 1])) / 65536 }
        let coded: [CodedColor] = [
            .codePoints(primaries: Int(bytes[0]), transfer: Int(bytes[1])),
            .gammaAndChromaticities(
                gamma: word(0) * 4, chromaticities: bytes.count >= 18 ? (0..<8).map { word(2 + 2 * $0) } : nil),
        ]
        for value in coded {
            for gray in [false, true] {
                let profile = CodedColorProfiles.profile(for: value, gray: gray)
                var pixels = PixelConverter.convert(image, to: gray ? .gray8 : .rgb8)
                _ = ColorManagement.apply(.sRGB, to: &pixels, profile: profile?.bytes)
                precondition(pixels.size == image.size)
            }
        }
    }
}
