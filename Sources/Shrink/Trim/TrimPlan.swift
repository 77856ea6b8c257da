import ShrinkCore

/// How a plan whose options trim decodes: the frame reduced to at most ``Trim/previewSide`` (``preview``), its
/// content's rectangle found there, then the target planned again for that rectangle (at no finer prescale than the
/// untrimmed plan, so the decode costs no more than the untrimmed one predicts) and decoded.
package final class TrimPlan: Sendable {
    /// The reduced decode the borders are found on (RGBA, no finishing).
    package let preview: DecodePlan
    /// The target, the frame (nil: the whole image) and the prescale the trimmed plan is made with.
    let target: ThumbnailTarget
    let frame: FractionalRect?
    let prescale: Int

    init(preview: DecodePlan, target: ThumbnailTarget, frame: FractionalRect?, prescale: Int) {
        self.preview = preview
        self.target = target
        self.frame = frame
        self.prescale = prescale
    }
}
