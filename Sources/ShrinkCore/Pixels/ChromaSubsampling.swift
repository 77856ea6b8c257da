/// How a YCbCr image's chroma is sampled relative to its luma.
public enum ChromaSubsampling: String, Sendable, CaseIterable {
    /// Chroma at full resolution: no subsampling.
    case s444 = "4:4:4"
    /// Chroma at half width, full height.
    case s422 = "4:2:2"
    /// Chroma at full width, half height.
    case s440 = "4:4:0"
    /// Chroma at half width and half height: most photos, and what `yuv420` holds.
    case s420 = "4:2:0"
    /// Chroma at a quarter of the width, full height.
    case s411 = "4:1:1"
    /// Chroma at a quarter of the width and half the height.
    case s410 = "4:1:0"
    /// Sampling factors that match none of the usual patterns.
    case nonStandard = "non-standard"

    /// The pattern for per-component sampling factors (first component = luma). Gray images have none.
    public init?(horizontal: [Int], vertical: [Int]) {
        guard horizontal.count >= 3, horizontal.count == vertical.count else { return nil }
        let chromaH = horizontal[1...].max() ?? 1, chromaV = vertical[1...].max() ?? 1
        guard horizontal[1...].allSatisfy({ $0 == chromaH }), vertical[1...].allSatisfy({ $0 == chromaV }),
            chromaH > 0, chromaV > 0, horizontal[0] % chromaH == 0, vertical[0] % chromaV == 0
        else {
            self = .nonStandard
            return
        }
        switch (horizontal[0] / chromaH, vertical[0] / chromaV) {
        case (1, 1): self = .s444
        case (2, 1): self = .s422
        case (1, 2): self = .s440
        case (2, 2): self = .s420
        case (4, 1): self = .s411
        case (4, 2): self = .s410
        default: self = .nonStandard
        }
    }
}
