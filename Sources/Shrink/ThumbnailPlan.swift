import ShrinkCore

/// How a decode will run, decided from the header alone before any pixel memory is allocated: the output
/// size, the orientation applied once, the decoder's prescale and the size it decodes to
/// (``ImageSource/predictedPeakBytes(for:options:)`` prices it).
public struct ThumbnailPlan: Sendable, Equatable {
    /// The stored (unoriented) source size.
    public let sourceSize: PixelSize
    /// Orientation applied to the result, exactly once, after reduction.
    public let orientation: ImageOrientation
    /// The result's displayed size.
    public let outputSize: PixelSize
    /// The result's size before orientation (`outputSize` with axes swapped for orientations 5–8).
    public let storedOutputSize: PixelSize
    /// The part of the stored full-resolution source that is resampled into the output.
    package private(set) var storedRegion: FractionalRect
    /// The same part in displayed (oriented) pixels.
    package private(set) var displayedRegion: FractionalRect
    /// The part of the displayed image the target applied to: the crop asked for, or the whole image.
    package let frame: FractionalRect
    /// The decoder scales by 1/`prescale` while decoding (1, 2, 4 or 8 for JPEG).
    public let prescale: Int
    /// The decoder's output size at that prescale.
    public let decodedSize: PixelSize
    /// True when a resampler runs after the decoder (false when the decoded rows are the output).
    public let resamples: Bool

    /// Plans a decode of an image described by `info` to `target`. `prescales` lists the scale denominators
    /// the codec supports, and `scaledSize` gives its output size for each. With `crop`, a rectangle in
    /// displayed pixels (after orientation, as a user sees the image), only that part is decoded and the
    /// target applies to it. Fails with `.invalidArgument` for an empty target or a crop outside the image.
    /// `minimumPrescale` makes the decoder scale by at least that much (when it can), even below the target
    /// resolution: a cheaper plan for a tight memory budget, the resampler then enlarging to the target.
    /// `filteredPrescales` says the reduced sizes are finished images (an icon's smaller entries, a pyramid's
    /// levels): the smallest that covers the output is taken, with no headroom left to the resampler.
    package init(
        info: ImageInfo, target: ThumbnailTarget, options: ThumbnailOptions, prescales: [Int],
        scaledSize: (Int) -> PixelSize, filteredPrescales: Bool = false, crop: FractionalRect? = nil,
        minimumPrescale: Int = 1
    ) throws(ImageError) {
        // A zoom multiplies the scale the target asks for before the no-upscaling clamp (as imgproxy's): the target
        // is met as if upscaling were allowed, zoomed, then clamped.
        let upscales = options.allowUpscaling
        var options = options
        if options.zoom != (1, 1) { options.allowUpscaling = true }
        let full = info.displayedSize
        let frame = crop ?? FractionalRect(full)
        if let crop, !crop.isInside(full) {
            throw ImageError(
                .invalidArgument,
                "crop \(crop) is outside the \(full) image (or not a finite rectangle of at least 1x1)")
        }
        let largestSide =
            switch target {
            case .maxPixelSize(let n): n
            case .box(let box, _): max(box.width, box.height)
            case .original, .prescale: 0
            }
        guard largestSide <= ThumbnailTarget.maxSide else {
            throw ImageError(
                .invalidArgument,
                "thumbnail size \(largestSide) is above the largest side Shrink produces (\(ThumbnailTarget.maxSide))")
        }
        // Targets apply to the frame (the whole image, or the crop); regions are found in it, then placed.
        let displayed = PixelSize(width: Int(frame.width), height: Int(frame.height))
        var out: PixelSize
        var region: FractionalRect
        var target = target
        if case .box(let box, .auto) = target {
            let same = (displayed.width >= displayed.height) == (box.width >= box.height)
            target = .box(box, fit: same ? .fill : .inside)
        }
        if case .box(let box, .insideEitherWay) = target {
            let same = (displayed.width >= displayed.height) == (box.width >= box.height)
            target = .box(same ? box : PixelSize(width: box.height, height: box.width), fit: .inside)
        }
        switch target {
        case .original:
            out = displayed
            region = FractionalRect(displayed)
        case .prescale(let d):
            guard d == 1 || prescales.contains(d) else {
                let supported = ([1] + prescales.filter { $0 > 1 }).map { "1/\($0)" }.joined(separator: ", ")
                throw ImageError(
                    .unsupportedFeature, "this decoder cannot scale by 1/\(d) while decoding (it can: \(supported))")
            }
            guard crop == nil else {
                throw ImageError(.invalidArgument, "an exact prescale applies to the whole image, not a crop")
            }
            // stored ↔ displayed swap both ways
            out = info.orientation.storedSize(of: d == 1 ? info.size : scaledSize(d))
            region = FractionalRect(displayed)
        case .maxPixelSize(let n):
            guard n > 0 else { throw ImageError(.invalidArgument, "thumbnail size must be at least 1, not \(n)") }
            let long = max(displayed.width, displayed.height)
            if n >= long && !options.allowUpscaling {
                out = displayed
            } else if displayed.width >= displayed.height {
                out = PixelSize(width: n, height: Self.scaled(displayed.height, n, long))
            } else {
                out = PixelSize(width: Self.scaled(displayed.width, n, long), height: n)
            }
            region = FractionalRect(displayed)
        case .box(let box, .inside), .box(let box, .auto), .box(let box, .insideEitherWay):
            try Self.check(box)
            out = Self.fitted(displayed, inside: box, allowUpscaling: options.allowUpscaling)
            region = FractionalRect(displayed)
        case .box(let box, .outside):
            try Self.check(box)
            var scale = max(Double(box.width) / Double(displayed.width), Double(box.height) / Double(displayed.height))
            if scale > 1 && !options.allowUpscaling { scale = 1 }
            out = PixelSize(
                width: max(1, Int((Double(displayed.width) * scale).rounded())),
                height: max(1, Int((Double(displayed.height) * scale).rounded())))
            region = FractionalRect(displayed)
        case .box(let box, .stretch):
            guard box.width >= 0, box.height >= 0, box.width + box.height > 0 else {
                throw ImageError(.invalidArgument, "a stretched thumbnail needs a width or a height, not \(box)")
            }
            let w = box.width > 0 ? box.width : displayed.width, h = box.height > 0 ? box.height : displayed.height
            // Without upscaling, the side enlarged most comes back to the source's size, the other with it.
            let enlarge = max(Double(w) / Double(displayed.width), Double(h) / Double(displayed.height))
            let s = options.allowUpscaling || enlarge <= 1 ? 1 : 1 / enlarge
            out = PixelSize(
                width: max(1, Int((Double(w) * s).rounded())), height: max(1, Int((Double(h) * s).rounded())))
            region = FractionalRect(displayed)
        case .box(let box, let fit): // cover, fill
            try Self.check(box)
            var scale = max(Double(box.width) / Double(displayed.width), Double(box.height) / Double(displayed.height))
            out = box
            if scale > 1 && !options.allowUpscaling {
                if fit == .fill {
                    // Each side the source's or the box's, whichever is smaller.
                    out = PixelSize(width: min(box.width, displayed.width), height: min(box.height, displayed.height))
                } else {
                    // Keep the box's aspect ratio at the source's own resolution.
                    out = PixelSize(
                        width: max(1, Int((Double(box.width) / scale).rounded())),
                        height: max(1, Int((Double(box.height) / scale).rounded())))
                }
                scale = 1
            }
            if let least = options.minimumSize {
                scale = max(
                    scale, Double(least.width) / Double(displayed.width),
                    Double(least.height) / Double(displayed.height))
            }
            let w = min(Double(displayed.width), Double(out.width) / scale)
            let h = min(Double(displayed.height), Double(out.height) / scale)
            let g = options.gravity
            region = FractionalRect(
                x: g.originX(window: w, in: Double(displayed.width), scale: scale),
                y: g.originY(window: h, in: Double(displayed.height), scale: scale), width: w, height: h)
        }
        // A stretched result has its own shape; every other keeps the image's.
        let stretched = target.fit == .stretch
        if options.zoom != (1, 1) {
            guard options.zoom.x > 0, options.zoom.y > 0, options.zoom.x.isFinite, options.zoom.y.isFinite else {
                throw ImageError(.invalidArgument, "zoom factors must be above 0, not \(options.zoom)")
            }
            out = Self.zoomed(
                out, by: options.zoom, region: region, keepsAspect: !stretched, allowUpscaling: upscales)
        }
        if let least = options.minimumSize, target.fit != .cover && target.fit != .fill {
            out = Self.enlarged(out, toAtLeast: least, shape: stretched ? out : displayed)
        }

        region.x += frame.x
        region.y += frame.y
        let stored = info.orientation.storedSize(of: out)
        let storedRegion = info.orientation.storedRect(for: region, storedSize: info.size)
        // The least reduction over the two axes, measured on the decoder's real scaled size, decides how
        // far the decoder may prescale: quality mode leaves at least 2× to the resampler, unless the reduced sizes are
        // finished images.
        let headroom = options.mode == .quality && !filteredPrescales ? 2.0 : 1.0
        var prescale = 1
        for d in prescales.sorted() where d > 1 {
            let s = scaledSize(d)
            let rx = storedRegion.width * Double(s.width) / Double(info.size.width) / Double(stored.width)
            let ry = storedRegion.height * Double(s.height) / Double(info.size.height) / Double(stored.height)
            if min(rx, ry) >= headroom || d <= minimumPrescale { prescale = d }
        }
        if case .prescale(let d) = target { prescale = d }
        self.sourceSize = info.size
        self.orientation = info.orientation
        self.outputSize = out
        self.storedOutputSize = stored
        self.storedRegion = storedRegion
        self.displayedRegion = region
        self.frame = frame
        self.prescale = prescale
        self.decodedSize = prescale == 1 ? info.size : scaledSize(prescale)
        self.resamples = !(decodedSize == stored && storedRegion == FractionalRect(info.size))
    }

    /// The region in decoded (prescaled) pixels. Decoded pixel `i` covers source pixels `[i·p, (i+1)·p)`
    /// for prescale `p`, so the region is divided by `p` exactly; a partial last block (the decoder rounds
    /// its size up) is then only partly inside, which keeps the geometry exact at the far edges.
    package var decodedRegion: FractionalRect {
        let p = Double(prescale)
        return FractionalRect(
            x: storedRegion.x / p, y: storedRegion.y / p, width: storedRegion.width / p,
            height: storedRegion.height / p)
    }

    /// The part of the decoded (prescaled) image a crop or cover decode needs: the region plus the
    /// resampler's reach around it (3 × the reduction, and a pixel for rounding), clamped to the image.
    /// Decoders that can skip rows and columns decode only this.
    package var decodingWindow: FractionalRect {
        let r = decodedRegion
        let mx = (3 * max(r.width / Double(storedOutputSize.width), 1)).rounded(.up) + 2
        let my = (3 * max(r.height / Double(storedOutputSize.height), 1)).rounded(.up) + 2
        let x0 = max(0, (r.x - mx).rounded(.down)), y0 = max(0, (r.y - my).rounded(.down))
        let x1 = min(Double(decodedSize.width), (r.x + r.width + mx).rounded(.up))
        let y1 = min(Double(decodedSize.height), (r.y + r.height + my).rounded(.up))
        return FractionalRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The plan of an image of `size` shown as it is stored: no orientation, no prescale, no resampling.
    /// For tests and fakes that build a ``DecodedImage`` (or a pipeline response) of their own.
    public init(size: PixelSize) {
        sourceSize = size
        orientation = .up
        outputSize = size
        storedOutputSize = size
        storedRegion = FractionalRect(size)
        displayedRegion = FractionalRect(size)
        frame = FractionalRect(size)
        prescale = 1
        decodedSize = size
        resamples = false
    }

    /// The part of the displayed image the output shows, rounded to whole pixels: the whole image unless a crop, a
    /// cover or a fill cut it (where ``Gravity`` placed the window).
    public var window: PixelRect {
        let r = displayedRegion
        return PixelRect(
            x: Int(r.x.rounded()), y: Int(r.y.rounded()), width: Int(r.width.rounded()), height: Int(r.height.rounded())
        )
    }

    /// This plan showing `displayed` instead (the window an attention crop chose; the decode that made it was
    /// another plan's).
    package func showing(_ displayed: FractionalRect) -> ThumbnailPlan {
        var moved = self
        moved.displayedRegion = displayed
        moved.storedRegion = orientation.storedRect(for: displayed, storedSize: sourceSize)
        return moved
    }

    /// The prescale as a fraction, e.g. `"1/8"`.
    public var prescaleText: String { "1/\(prescale)" }

    /// The size an image `displayed` that large comes out fitted inside `box` (aspect ratio kept, never
    /// enlarged without `allowUpscaling`): the output size of a `.box(box, .inside)` target.
    package static func fitted(_ displayed: PixelSize, inside box: PixelSize, allowUpscaling: Bool) -> PixelSize {
        let sx = Double(box.width) / Double(displayed.width), sy = Double(box.height) / Double(displayed.height)
        if min(sx, sy) >= 1 && !allowUpscaling {
            return displayed
        } else if sx <= sy {
            return PixelSize(
                width: box.width, height: min(box.height, scaled(displayed.height, box.width, displayed.width)))
        } else {
            return PixelSize(
                width: min(box.width, scaled(displayed.width, box.height, displayed.height)), height: box.height)
        }
    }

    /// Fails unless `box` is at least 1×1.
    private static func check(_ box: PixelSize) throws(ImageError) {
        guard box.width > 0, box.height > 0 else {
            throw ImageError(.invalidArgument, "thumbnail box must be at least 1x1, not \(box)")
        }
    }

    /// `size` times `zoom` per axis (from the scale of its longer side when it `keepsAspect`, so that a side rounded
    /// before is not rounded twice); without upscaling, both sides shrunk by one factor until neither is larger than
    /// `region`'s.
    private static func zoomed(
        _ size: PixelSize, by zoom: (x: Double, y: Double), region: FractionalRect, keepsAspect: Bool,
        allowUpscaling: Bool
    ) -> PixelSize {
        var w = Double(size.width) * zoom.x, h = Double(size.height) * zoom.y
        if keepsAspect {
            let s = size.width >= size.height ? Double(size.width) / region.width : Double(size.height) / region.height
            (w, h) = (region.width * s * zoom.x, region.height * s * zoom.y)
        }
        let over = max(w / region.width, h / region.height)
        if !allowUpscaling && over > 1 { (w, h) = (w / over, h / over) }
        let limit = Double(ThumbnailTarget.maxSide)
        return PixelSize(width: Int(min(limit, max(1, w.rounded()))), height: Int(min(limit, max(1, h.rounded()))))
    }

    /// `size` when it is at least `least` on both sides, else `shape` (the image's aspect ratio) scaled until it is.
    private static func enlarged(_ size: PixelSize, toAtLeast least: PixelSize, shape: PixelSize) -> PixelSize {
        guard size.width < least.width || size.height < least.height else { return size }
        let s = max(Double(least.width) / Double(shape.width), Double(least.height) / Double(shape.height))
        return PixelSize(
            width: max(least.width, 1, Int((Double(shape.width) * s).rounded())),
            height: max(least.height, 1, Int((Double(shape.height) * s).rounded())))
    }

    /// `value × n / total`, rounded, at least 1.
    private static func scaled(_ value: Int, _ n: Int, _ total: Int) -> Int {
        max(1, Int((Double(value) * Double(n) / Double(total)).rounded()))
    }
}
