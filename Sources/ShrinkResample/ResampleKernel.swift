/// The filter a resample convolves with.
package enum ResampleKernel: Sendable, Hashable {
    /// Lanczos-3, widened by the reduction factor (Pillow's scheme): every plane and colour image by default.
    case lanczos3
    /// For a chroma plane made at half the output's size: Lanczos-3 at the luma's rate, averaged over the chroma
    /// sample's footprint — the filter a full-size chroma resampled with Lanczos-3 and then subsampled 2:1 by a
    /// JPEG encoder's box would have had. Plain Lanczos-3 at the chroma's own rate keeps more of the chroma's
    /// finest detail than that, so thumbnails made through YUV planes would differ from those made through RGB.
    /// Its windows are no longer than plain Lanczos-3's at reductions of 1.2 or more (one tap more each side below).
    case subsampledLanczos3

    /// The kernel's widening at a reduction of `scale` input samples per output sample: the reduction (at least 1)
    /// for Lanczos-3; half of it, the luma's rate, for the subsampled kernel.
    func filterScale(scale: Double) -> Double {
        switch self {
        case .lanczos3: max(scale, 1)
        case .subsampledLanczos3: max(scale / 2, 1)
        }
    }

    /// How far the kernel reaches on either side of an output sample's centre, in input samples.
    func support(scale: Double) -> Double {
        switch self {
        case .lanczos3: 3 * filterScale(scale: scale)
        case .subsampledLanczos3: 3 * filterScale(scale: scale) + scale / 2
        }
    }

    /// The footprint the kernel is averaged over (`width` input samples, one output sample's) and at how many
    /// evenly spread points (a midpoint rule, at least two per widened kernel unit); one point and no width for
    /// Lanczos-3.
    func footprint(scale: Double) -> (points: Int, width: Double) {
        switch self {
        case .lanczos3: (1, 0)
        case .subsampledLanczos3: (max(2, Int((2 * scale / filterScale(scale: scale)).rounded(.up))), scale)
        }
    }
}
