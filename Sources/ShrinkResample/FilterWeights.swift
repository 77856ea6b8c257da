#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The weights of a one-axis resample, precomputed per output sample: Lanczos-3 (Pillow's scheme: the kernel is
/// widened by the reduction factor, so reducing is an exact area-weighted convolution with no aliasing), or that
/// kernel averaged over a chroma sample's footprint (``ResampleKernel/subsampledLanczos3``).
///
/// Memory: `outputCount × stride` floats.
struct FilterWeights {
    /// First input index of each output sample's window.
    let start: [Int]
    /// Window length of each output sample.
    let count: [Int]
    /// Weights, `stride` per output sample, normalised to sum 1; zero past each window's `count`.
    let weights: [Float]
    /// The longest window.
    let maxTaps: Int
    /// Floats between two output samples' weights: `maxTaps` rounded up to 8, so a window is read as whole
    /// 8-lane vectors.
    let stride: Int

    /// Weights mapping input samples `[from, to)` (fractional bounds allowed) of an axis of `inputCount`
    /// samples onto `outputCount` output samples.
    init(inputCount: Int, from: Double, to: Double, outputCount: Int, kernel: ResampleKernel = .lanczos3) {
        let scale = (to - from) / Double(outputCount)
        let filterScale = kernel.filterScale(scale: scale)
        let support = kernel.support(scale: scale)
        // The kernel is averaged over `points` positions spread evenly across the footprint (one, at the centre,
        // for plain Lanczos-3).
        let (points, footprint) = kernel.footprint(scale: scale)
        let taps = min(Int(support.rounded(.up)) * 2 + 1, inputCount + 1)
        let stride = (taps + 7) / 8 * 8
        var start = [Int](repeating: 0, count: outputCount)
        var count = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * stride)
        var w = [Double](repeating: 0, count: taps) // one window's weights, reused
        // The taps of a window are `1 / filterScale` apart, so sin(πx/3) steps by a fixed angle: one sin and
        // one cos per window, then a rotation per tap, instead of a sin per tap.
        let step = Double.pi / (3 * filterScale)
        let (stepSin, stepCos) = (sin(step), cos(step))
        for i in 0..<outputCount {
            let center = from + (Double(i) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), inputCount)
            var n = min(max(hi - lo, 1), taps)
            for k in 0..<n { w[k] = 0 }
            for p in 0..<points {
                let point = center + footprint * ((Double(p) + 0.5) / Double(points) - 0.5)
                let t0 = Double.pi * ((Double(lo) - point + 0.5) / filterScale) / 3
                var (s, c) = (sin(t0), cos(t0))
                for k in 0..<n {
                    let x = (Double(lo + k) - point + 0.5) / filterScale
                    // The rotated sine is off by about 1e-15 after a window's taps, a part in 1e9 or less of a
                    // weight (∝ sin²) unless x is within 1e-5 of 0: sin there.
                    w[k] += Self.lanczos3(x, sinOfThird: abs(x) < 1e-5 ? sin(Double.pi * x / 3) : s)
                    (s, c) = (s * stepCos + c * stepSin, c * stepCos - s * stepSin)
                }
            }
            var total = 0.0
            for k in 0..<n { total += w[k] }
            if total == 0 {
                // Degenerate window (cannot happen for sane geometry): take the nearest sample.
                n = 1
                w[0] = 1
                total = 1
            }
            start[i] = min(lo, inputCount - 1)
            count[i] = n
            for k in 0..<n { weights[i * stride + k] = Float(w[k] / total) }
        }
        self.start = start
        self.count = count
        self.weights = weights
        self.maxTaps = taps
        self.stride = stride
    }

    /// Index of the last input sample any output needs (for stopping a decode early, or the end of the span a
    /// row's windows read).
    var lastInputNeeded: Int {
        zip(start, count).map { $0 + $1 - 1 }.max() ?? 0
    }

    /// The Lanczos-3 kernel `3 sin(πx) sin(πx/3) / (πx)²` from `sinOfThird` = sin(πx/3): with `t = πx/3`,
    /// `sin(πx) = sin(3t) = sin t (3 − 4 sin² t)`.
    static func lanczos3(_ x: Double, sinOfThird s: Double) -> Double {
        if x == 0 { return 1 }
        guard x > -3, x < 3 else { return 0 }
        let t = Double.pi * x / 3
        return s * (3 - 4 * s * s) * s / (3 * t * t)
    }
}
