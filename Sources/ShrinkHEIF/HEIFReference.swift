/// One `iref` entry: an item pointing at others with a meaning (`dimg`: a grid's tiles, `thmb`: a thumbnail
/// of, `auxl`: an auxiliary image (alpha, depth) of, `cdsc`: metadata describing).
package struct HEIFReference: Sendable, Equatable {
    package let type: String
    package let from: Int
    package let to: [Int]
}
