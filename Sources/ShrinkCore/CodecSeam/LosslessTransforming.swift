/// Rewrites of an encoded image that change its geometry without decoding it (JPEG's DCT-domain rotations
/// and crops). Each checks its cost from the header against the limits and `memoryBudget` before
/// allocating anything.
public protocol LosslessTransforming: Sendable {
    /// The image made upright: `orientation` undone on the coded data, the orientation tag then set to 1.
    /// With `trim`, edge blocks that cannot be moved exactly are dropped; without it they fail with
    /// `.unsupportedFeature`.
    func upright(from orientation: ImageOrientation, trim: Bool, memoryBudget: Int) throws(ImageError) -> [UInt8]
    /// The smallest rectangle of whole coded blocks that contains `stored` (stored pixels), cut out.
    func crop(_ stored: FractionalRect, memoryBudget: Int) throws(ImageError) -> (bytes: [UInt8], kept: FractionalRect)
}
