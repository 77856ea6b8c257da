import ShrinkCore

/// A JPEG's lossless rotations and crops: TurboJPEG rewrites the DCT coefficients, nothing is re-encoded.
/// The cost (every coefficient, twice for a rotation) is checked from the header first (see
/// ``JPEGDecoder/transformed(_:trim:crop:memoryBudget:)``).
struct JPEGLosslessTransforms: LosslessTransforming {
    let decoder: JPEGDecoder

    func upright(from orientation: ImageOrientation, trim: Bool, memoryBudget: Int) throws(ImageError) -> [UInt8] {
        guard let operation = JPEGTransform.Operation(undoing: orientation) else {
            return JPEGTransform.settingOrientationUp(Array(decoder.bytes.bytes))
        }
        return JPEGTransform.settingOrientationUp(
            try decoder.transformed(operation, trim: trim, memoryBudget: memoryBudget))
    }

    /// `stored` widened outwards to iMCU boundaries (crops start on their multiples) and cut out.
    func crop(_ stored: FractionalRect, memoryBudget: Int) throws(ImageError) -> (bytes: [UInt8], kept: FractionalRect)
    {
        let size = decoder.info.size
        let (mw, mh) = decoder.iMCUSize
        let x0 = Int(stored.x) / mw * mw, y0 = Int(stored.y) / mh * mh
        let x1 = min(size.width, Int((stored.x + stored.width).rounded(.up)))
        let y1 = min(size.height, Int((stored.y + stored.height).rounded(.up)))
        let out = try decoder.transformed(.none, crop: (x0, y0, x1 - x0, y1 - y0), memoryBudget: memoryBudget)
        return (out, FractionalRect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0)))
    }
}
