import ShrinkCore

/// A plan chosen to fit a memory budget (``ImageSource/plan(_:region:options:within:)``): the plan, the options
/// to run it with (possibly fast mode), the pixel format, its predicted peak, and which fallback made it fit.
package struct BudgetedPlan: Sendable {
    /// The plan to run.
    package let plan: ThumbnailPlan
    /// The options to run it with: the request's, or the request's in fast mode for a fallback.
    package let options: ThumbnailOptions
    /// The result's pixel format under ``options``.
    package let format: PixelFormat
    /// The peak bytes predicted from the header (``ImageSource/predictedPeakBytes(for:options:)``).
    package let predictedPeakBytes: Int
    /// nil when the requested plan fits; otherwise what was given up to fit, e.g. `fast mode` or
    /// `DCT scale 1/8 (DC-first)`.
    package let fallback: String?
}
