import ShrinkCore

/// A colour transform run on decoded rows before the resampler (``ColorManagement/beforeResampling(_:profile:rowFormat:)``),
/// for profiles too steep to convert after the reduction. Costs a transform of every pixel of every decoded row (the
/// image at its decoded size, not the output's; per-pixel cost: BENCHMARKS.md, "Figures behind the code"), nothing
/// held.
package struct ColorRowTransform: Sendable {
    let transform: ColorTransform
    /// The source profile's name and the target's, for the report.
    package let from: String
    package let to: String
    /// The profile the result is in (Display P3's, or nil for sRGB).
    package let embedded: [UInt8]?

    /// Transforms `count` pixels of the row format at `pixels` in place.
    package func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
        transform.apply(pixels, count: count)
    }

    /// What this transform did to an image, having spent `elapsed` on its rows.
    package func result(elapsed: Duration) -> ColorManagementResult {
        ColorManagementResult(
            profile: embedded,
            conversion: ColorConversion(
                from: from, to: to, converted: true,
                milliseconds: elapsed.inMilliseconds),
            warning: nil)
    }
}
