import ShrinkCore

/// An image laid over a finished result (``Finishing/watermark``, imgproxy's `wm`): decoded at the size it is shown
/// (a fraction of the result's, or its own), placed by a gravity with its offsets or tiled over the whole result,
/// and blended at an opacity. It costs its own decode at that size and one pass over the pixels it covers.
public struct Watermark: Sendable, Hashable {
    /// The image laid over (any format Shrink reads; its alpha is kept).
    public let source: ImageSource
    /// Names the image's content for cache keys: two watermarks with the same identity must be the same image.
    public let identity: String
    /// 0–1: how much of the watermark shows (multiplied into its alpha). 1 by default.
    public var opacity: Double
    /// Where it sits (its offsets move it in result pixels, or fractions of the result's side below 1).
    /// ``Gravity/centre`` by default.
    public var gravity: Gravity
    /// Tiled over the whole result, the gravity's offsets the space between tiles (imgproxy's `re`). `false` by
    /// default.
    public var tiled: Bool
    /// Above 0: the watermark fitted inside this fraction of the result's width and height; 0 (the default): its
    /// own size times ``pixelScale``.
    public var scale: Double
    /// The watermark's own size is multiplied by this when ``scale`` is 0 (a `dpr`). 1 by default.
    public var pixelScale: Double

    /// `source` named `identity`, with the defaults above.
    public init(
        source: ImageSource, identity: String, opacity: Double = 1, gravity: Gravity = .centre, tiled: Bool = false,
        scale: Double = 0, pixelScale: Double = 1
    ) {
        self.source = source
        self.identity = identity
        self.opacity = opacity
        self.gravity = gravity
        self.tiled = tiled
        self.scale = scale
        self.pixelScale = pixelScale
    }

    /// Equal when the identities and every setting are (the source is named by its identity).
    public static func == (a: Watermark, b: Watermark) -> Bool {
        a.identity == b.identity && a.opacity == b.opacity && a.gravity == b.gravity && a.tiled == b.tiled
            && a.scale == b.scale && a.pixelScale == b.pixelScale
    }

    /// Hashes the identity and the settings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(opacity)
        hasher.combine(gravity)
        hasher.combine(tiled)
        hasher.combine(scale)
        hasher.combine(pixelScale)
    }

    var isValid: Bool {
        opacity.isFinite && (0...1).contains(opacity) && scale.isFinite && (0...1).contains(scale)
            && pixelScale.isFinite && pixelScale > 0 && pixelScale <= 8
    }

    /// The target the watermark is decoded at over a result of `size`.
    func target(over size: PixelSize) -> ThumbnailTarget {
        if scale > 0 {
            return .box(
                PixelSize(
                    width: max(1, Int((Double(size.width) * scale).rounded())),
                    height: max(1, Int((Double(size.height) * scale).rounded()))), fit: .inside)
        }
        let own = source.info.displayedSize
        return .box(
            PixelSize(
                width: max(1, Int((Double(own.width) * pixelScale).rounded())),
                height: max(1, Int((Double(own.height) * pixelScale).rounded()))), fit: .stretch)
    }

    /// The options the watermark decodes with: RGBA, upscaling allowed (a small logo on a large result).
    var decoding: ThumbnailOptions { ThumbnailOptions(allowUpscaling: true, pixelFormat: .exactly(.rgba8)) }

    /// Bytes laying it over a result of `size` holds: its decode's predicted peak (its RGBA pixels included).
    func predictedBytes(over size: PixelSize) -> Int {
        guard let plan = try? source.plan(target(over: size), options: decoding) else { return 0 }
        return source.predictedPeakBytes(for: plan, options: decoding)
    }

    /// Where the watermark's top-left corners go over a result of `size`: one place by the gravity, or a grid from
    /// the top left with the offsets as the space between tiles.
    func origins(of mark: PixelSize, over size: PixelSize) -> [(x: Int, y: Int)] {
        guard tiled else {
            return [
                (
                    Int(gravity.originX(window: Double(mark.width), in: Double(size.width)).rounded()),
                    Int(gravity.originY(window: Double(mark.height), in: Double(size.height)).rounded())
                )
            ]
        }
        func gap(_ offset: Double, _ side: Int) -> Int {
            max(0, Int((abs(offset) < 1 ? offset * Double(side) : offset).rounded()))
        }
        let stepX = mark.width + gap(gravity.offsetX, size.width),
            stepY = mark.height + gap(gravity.offsetY, size.height)
        var origins: [(x: Int, y: Int)] = []
        for y in Swift.stride(from: 0, to: size.height, by: stepY) {
            for x in Swift.stride(from: 0, to: size.width, by: stepX) { origins.append((x, y)) }
        }
        return origins
    }

    var keyValue: String {
        "\(identity)@\(opacity),\(gravity.keyValue),\(tiled ? "tiled" : "placed"),\(scale),\(pixelScale)"
    }
}
