import Shrink

/// ICC profiles from files, through lcms2: parsed (``ColorProfile``), then applied to a small image as rgb8,
/// gray8 and rgba16 (transformed in place) to sRGB and as yuv420 (through rgb8) to Display P3. Whatever lcms2 makes of the bytes,
/// the pixels keep their format and size, and a profile it cannot use is a warning.
enum ICCProfileHarness {
    static let image = PixelBuffer(format: .rgba16, size: Size(width: 7, height: 5),
                                   bytes: (0..<7 * 5 * 8).map { UInt8(truncatingIfNeeded: $0 &* 37) })

    static func fuzz(_ bytes: [UInt8]) {
        _ = ColorProfile(bytes)?.summary
        for (format, policy) in [(PixelFormat.rgb8, ColorPolicy.sRGB), (.gray8, .sRGB), (.rgba16, .sRGB), (.yuv420, .displayP3)] {
            var pixels = PixelConverter.convert(image, to: format)
            let result = ColorManagement.apply(policy, to: &pixels, profile: bytes)
            precondition(pixels.format == format && pixels.size == image.size && pixels.bytes.count == format.byteCount(for: image.size))
            precondition(result.conversion != nil)
        }
    }
}
