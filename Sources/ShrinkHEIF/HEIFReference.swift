/// One `iref` entry: an item pointing at others with a meaning (`dimg`: a grid's tiles, `thmb`: a thumbnail
/// of, `auxl`: an auxiliary image (alpha, depth) of, `cdsc`: metadata describing).
public struct HEIFReference: Sendable, Equatable {
    public let type: String
    public let from: Int
    public let to: [Int]
}
