import ShrinkCore

/// A plan with everything its decode needs, decided once from the header: the geometry (``ThumbnailPlan``),
/// the options to run it with, the pixel format, the route the codec chose for them, and the peak bytes that
/// route predicts. The decode runs this route and no other, the prediction reads this route's figures, and
/// telemetry reports this route's path and decoder, so the three cannot drift apart
/// (``ImageSource/plan(_:region:options:within:reserving:)`` makes one within a budget).
package struct DecodePlan: Sendable {
    /// The geometry to run.
    package let plan: ThumbnailPlan
    /// The options to run it with: the request's, or the request's in fast mode for a fallback.
    package let options: ThumbnailOptions
    /// The result's pixel format under ``options``.
    package let format: PixelFormat
    /// The codec's route for ``plan`` in ``format`` under the options' colour policy: what the decode starts.
    package let route: DecodeRoute
    /// The peak bytes predicted from the header for ``route`` (``ImageSource/predictedPeakBytes(for:options:)``).
    package let predictedPeakBytes: Int
    /// Bytes the caller holds beside the decode for this plan (an encoder's, say), counted in the budget the
    /// plan was chosen within; 0 unless asked for.
    package let reservedBytes: Int
    /// nil when the requested plan fits; otherwise what was given up to fit, e.g. `fast mode` or
    /// `DCT scale 1/8 (DC-first)`.
    package let fallback: String?
    /// For a cut placed by ``Gravity/attention``: the cover decode the window is cut from (the decode runs it, not
    /// ``route``); nil otherwise.
    package var attention: AttentionCrop? = nil
    /// For options that trim: the reduced decode the borders are found on, and how the trimmed plan is made (the
    /// decode runs that, not ``route``); nil otherwise.
    package var trim: TrimPlan? = nil

    /// The size of the finished result: the plan's output size, grown by the options' ``Finishing``.
    package var finishedSize: PixelSize { options.finishing.finishedSize(of: plan.outputSize) }

    /// The same plan with `reserved` bytes reserved beside it and `fallback` recorded.
    func with(reserved: Int, fallback: String?) -> DecodePlan {
        DecodePlan(
            plan: plan, options: options, format: format, route: route, predictedPeakBytes: predictedPeakBytes,
            reservedBytes: reserved, fallback: fallback, attention: attention, trim: trim)
    }
}
