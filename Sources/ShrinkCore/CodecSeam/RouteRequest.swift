/// What the planner asks a codec for: a scale, whether YUV planes or 16-bit rows would serve the result, and
/// the part of the (scaled) image needed.
public struct RouteRequest: Sendable, Equatable {
    /// Decode at 1/`scaleDenominator` (one of the codec's ``ImageDecoding/scaleDenominators``).
    public var scaleDenominator: Int
    /// The result is YUV: a codec that can deliver planes should.
    public var wantsPlanes: Bool
    /// The result is rgba16: a codec that can keep samples deeper than 8 bits should deliver rgba16 rows.
    public var wantsSixteenBit: Bool
    /// The part of the scaled image the result needs, or nil for all of it: a codec that can skip rows and
    /// columns decodes only this.
    public var window: FractionalRect?
    /// The decode may be lent helper threads (``DecodeOptions/helpers``): a route that holds more itself when helped
    /// (a second band its helpers fill ahead) counts it in its working bytes.
    public var helped: Bool

    /// A request for a decode at 1/`scaleDenominator`, with the planner's wishes.
    public init(
        scaleDenominator: Int, wantsPlanes: Bool = false, wantsSixteenBit: Bool = false, window: FractionalRect? = nil,
        helped: Bool = false
    ) {
        self.scaleDenominator = scaleDenominator
        self.wantsPlanes = wantsPlanes
        self.wantsSixteenBit = wantsSixteenBit
        self.window = window
        self.helped = helped
    }
}
