import ShrinkCore

/// What is done to a result at its output size, after the resampler and the colour conversion, in this order
/// (imgproxy's): blur, sharpen, pixelate, extend to a size, extend to an aspect ratio, pad, flatten onto the
/// background, and lay a watermark over it. Every step works on the output's pixels, never the source's: its cost follows the output size.
///
/// The steps work in 8-bit RGB (RGBA when the image has alpha or the canvas grows without a background): a
/// finished result is rgb8 or rgba8 whatever the pixel format policy asked for. Empty (nothing done) by default.
public struct Finishing: Sendable, Hashable {
    /// Shades of grey (BT.601 luma), alpha kept; before the other steps. `false` by default.
    public var grayscale = false
    /// Gaussian blur of this standard deviation in output pixels (three box passes); 0 for none.
    public var blurSigma = 0.0
    /// Unsharp mask (the image plus its difference from a blur of this standard deviation); 0 for none.
    public var sharpenSigma = 0.0
    /// Pixelation: blocks this many output pixels wide and tall, each its average colour; 0 or 1 for none.
    public var pixelateSize = 0
    /// Grows the canvas to at least this size (imgproxy's `extend`); nil for none.
    public var extend: CanvasExtension?
    /// Grows the canvas to this aspect ratio (``CanvasExtension/size`` gives its terms; imgproxy's `exar`); nil
    /// for none.
    public var extendToAspectRatio: CanvasExtension?
    /// Space added around the result (imgproxy's `pd`).
    public var padding = EdgeInsets()
    /// The colour of added space, and the result flattened onto it; nil: added space is transparent and the
    /// image keeps its alpha.
    public var background: RGBColor?
    /// An image laid over the finished result (imgproxy's `wm`); nil for none.
    public var watermark: Watermark?

    /// Nothing done.
    public init() {}

    /// The largest blur or sharpen deviation and pixelation block accepted.
    public static let maxSigma = 1_000.0

    /// True when no step does anything.
    public var isEmpty: Bool {
        !grayscale && blurSigma <= 0 && sharpenSigma <= 0 && pixelateSize <= 1 && extend == nil
            && extendToAspectRatio == nil
            && padding.isEmpty && background == nil && watermark == nil
    }

    /// Fails with `.invalidArgument` for values out of range: deviations above ``maxSigma`` or not finite,
    /// negative sizes or padding, a pixelation block above ``ThumbnailTarget/maxSide``.
    public func validate() throws(ImageError) {
        guard blurSigma.isFinite, sharpenSigma.isFinite, (0...Self.maxSigma).contains(blurSigma),
            (0...Self.maxSigma).contains(sharpenSigma)
        else {
            throw ImageError(.invalidArgument, "blur and sharpen deviations must be in 0…\(Int(Self.maxSigma))")
        }
        guard watermark?.isValid ?? true else {
            throw ImageError(.invalidArgument, "a watermark's opacity and scale must be in 0…1")
        }
        guard (0...ThumbnailTarget.maxSide).contains(pixelateSize), padding.isValid,
            [extend, extendToAspectRatio].allSatisfy({ $0?.isValid ?? true })
        else {
            throw ImageError(.invalidArgument, "pixelation, extension and padding sizes must be 0 or more")
        }
    }

    /// The size a result of `size` has once finished: extended, then padded.
    public func finishedSize(of size: PixelSize) -> PixelSize {
        placement(of: size).canvas
    }

    /// The finished canvas for a result of `size`, and where the result sits in it.
    func placement(of size: PixelSize) -> (canvas: PixelSize, origin: (x: Int, y: Int)) {
        var canvas = size, x = 0, y = 0
        if let extend {
            let grown = PixelSize(
                width: max(canvas.width, extend.size.width), height: max(canvas.height, extend.size.height))
            (x, y) = extend.origin(of: canvas, in: grown)
            canvas = grown
        }
        if let ratio = extendToAspectRatio, ratio.size.width > 0, ratio.size.height > 0 {
            let r = Double(ratio.size.width) / Double(ratio.size.height)
            let grown =
                Double(canvas.width) / Double(canvas.height) > r
                ? PixelSize(width: canvas.width, height: max(canvas.height, Int((Double(canvas.width) / r).rounded())))
                : PixelSize(width: max(canvas.width, Int((Double(canvas.height) * r).rounded())), height: canvas.height)
            let (dx, dy) = ratio.origin(of: canvas, in: grown)
            (x, y, canvas) = (x + dx, y + dy, grown)
        }
        let p = padding
        return (
            PixelSize(width: canvas.width + p.left + p.right, height: canvas.height + p.top + p.bottom),
            (x + p.left, y + p.top)
        )
    }

    /// Bytes finishing a result of `size` holds at its peak beside the result itself: the 8-bit working copy, a
    /// blurred copy or scratch image the filters use, and the finished canvas.
    package func predictedBytes(for size: PixelSize) -> Int {
        guard !isEmpty else { return 0 }
        let working = size.pixelCount * 4
        let filters = blurSigma > 0 || sharpenSigma > 0 ? working : 0
        let finished = finishedSize(of: size)
        return working + filters + finished.pixelCount * 4 + (watermark?.predictedBytes(over: finished) ?? 0)
    }

    /// One spelling of these steps for cache keys: empty when nothing is done.
    package var keyValue: String {
        guard !isEmpty else { return "" }
        func f(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        let p = padding
        return [
            "g\(grayscale ? 1 : 0)", "b\(f(blurSigma))", "s\(f(sharpenSigma))", "p\(pixelateSize)",
            "e\(extend?.keyValue ?? "-")",
            "r\(extendToAspectRatio?.keyValue ?? "-")", "pd\(p.top),\(p.right),\(p.bottom),\(p.left)",
            "bg\(background?.hex ?? "-")", "wm\(watermark?.keyValue ?? "-")",
        ].joined(separator: ";")
    }
}
