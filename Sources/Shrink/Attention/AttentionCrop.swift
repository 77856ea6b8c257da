import ShrinkCore
import ShrinkResample

/// How a cover or fill plan whose gravity is ``Gravity/attention`` decodes: the whole frame at the size that
/// covers the box (``cover``), then the window ``AttentionMap`` chooses cut from it, so the content decides the
/// crop at the cost of decoding the frame's cover size instead of only the window.
package final class AttentionCrop: Sendable {
    /// The frame decoded at its cover size, centred gravity, no finishing.
    package let cover: DecodePlan

    init(cover: DecodePlan) {
        self.cover = cover
    }

    /// Bytes the crop holds beyond the cover decode's result: an RGB copy of it for the analysis, the resampler that
    /// takes it to the 32 × 32 grid, the grid's planes, and the cut window in `format`.
    static func workingBytes(cover: PixelSize, window: PixelSize, format: PixelFormat) -> Int {
        let grid = PixelSize(width: AttentionMap.grid, height: AttentionMap.grid)
        return cover.pixelCount * 3
            + StreamingResampler.predictedBytes(inputSize: cover, format: .rgb8, outputSize: grid, region: nil)
            + grid.pixelCount * 8 * MemoryLayout<Double>.size + format.byteCount(for: window)
    }
}
