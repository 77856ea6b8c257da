import ShrinkCore

/// Cuts placed by ``Gravity/attention``: planned as the frame's cover decode (``AttentionCrop``), decoded by cutting
/// the window ``AttentionMap`` chooses out of it.
extension ImageSource {
    /// `priced` made to place its window by attention when its options ask for it and it cuts its frame (the crop,
    /// or the whole image); priced by the cover decode and the cut. Unchanged otherwise.
    func placingByAttention(_ priced: DecodePlan) throws(ImageError) -> DecodePlan {
        let plan = priced.plan, options = priced.options
        guard options.gravity.findsAttention, priced.attention == nil else { return priced }
        let displayedFrame = plan.frame
        let frame: FractionalRect? =
            displayedFrame == FractionalRect(plan.orientation.displayedSize(of: plan.sourceSize)) ? nil : displayedFrame
        let region = plan.storedRegion
        let (regionWidth, regionHeight) =
            plan.orientation.swapsAxes ? (region.height, region.width) : (region.width, region.height)
        guard regionWidth < displayedFrame.width - 0.5 || regionHeight < displayedFrame.height - 0.5 else {
            return priced
        }
        let out = plan.outputSize
        let cover = PixelSize(
            width: max(out.width, Int((Double(out.width) * displayedFrame.width / regionWidth).rounded(.up))),
            height: max(out.height, Int((Double(out.height) * displayedFrame.height / regionHeight).rounded(.up))))
        var coverOptions = options
        (coverOptions.gravity, coverOptions.finishing, coverOptions.minimumSize) = (.centre, Finishing(), nil)
        (coverOptions.zoom, coverOptions.allowUpscaling) = ((1, 1), true)
        let coverPlan = try decodePlan(.box(cover, fit: .stretch), region: frame, options: coverOptions)
        let working = AttentionCrop.workingBytes(cover: cover, window: out, format: coverPlan.format)
        let finishing =
            options.finishing.isEmpty
            ? 0 : priced.format.byteCount(for: out) + options.finishing.predictedBytes(for: out)
        var placed = DecodePlan(
            plan: plan, options: options, format: priced.format, route: coverPlan.route,
            predictedPeakBytes: max(
                coverPlan.predictedPeakBytes, coverPlan.format.byteCount(for: cover) + working, finishing),
            reservedBytes: priced.reservedBytes, fallback: priced.fallback)
        placed.attention = AttentionCrop(cover: coverPlan)
        return placed
    }

    /// `chosen`'s image by its ``AttentionCrop``: the cover decode, the window the attention map places cut from it
    /// (on even pixels for subsampled formats), then the finishing.
    func imageByAttention(_ chosen: DecodePlan, _ crop: AttentionCrop, monitor: DecodeMonitor?) throws(ImageError)
        -> DecodedImage
    {
        let cover = try image(crop.cover, monitor: monitor)
        let window = chosen.plan.outputSize, size = cover.pixels.size
        let w = min(window.width, size.width), h = min(window.height, size.height)
        var (x, y) = AttentionMap.windowOrigin(
            PixelConverter.convert(cover.pixels, to: .rgb8), window: PixelSize(width: w, height: h))
        if cover.pixels.planes.count > 1 { (x, y) = (x - x % 2, y - y % 2) }
        let cut = cover.pixels.cropped(to: PixelRect(x: x, y: y, width: w, height: h))
        // The window in the frame's displayed pixels, for the plan the result reports.
        let frame = cover.plan.displayedRegion
        let sx = frame.width / Double(size.width), sy = frame.height / Double(size.height)
        let shown = FractionalRect(
            x: frame.x + Double(x) * sx, y: frame.y + Double(y) * sy, width: Double(w) * sx, height: Double(h) * sy)
        return DecodedImage(
            pixels: try chosen.options.finishing.apply(to: cut), plan: chosen.plan.showing(shown),
            metadata: cover.metadata,
            predictedPeakBytes: chosen.predictedPeakBytes, decodePath: cover.decodePath, decoder: cover.decoder,
            workingBytes: cover.workingBytes, warnings: cover.warnings, colorConversion: cover.colorConversion)
    }
}
