/// What the planner asks a codec for: a scale, whether YUV planes would serve the result, and the part of
/// the (scaled) image needed.
public struct RouteRequest: Sendable, Equatable {
    /// Decode at 1/`scaleDenominator` (one of the codec's ``ImageDecoding/scaleDenominators``).
    public var scaleDenominator: Int
    /// The result is YUV: a codec that can deliver planes should.
    public var wantsPlanes: Bool
    /// The part of the scaled image the result needs, or nil for all of it: a codec that can skip rows and
    /// columns decodes only this.
    public var window: Rect?

    public init(scaleDenominator: Int, wantsPlanes: Bool = false, window: Rect? = nil) {
        self.scaleDenominator = scaleDenominator
        self.wantsPlanes = wantsPlanes
        self.window = window
    }
}
