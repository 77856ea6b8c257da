import ShrinkCore

/// Plans that trim (``ThumbnailOptions/trim``): priced with their reduced decode, decoded by finding the content's
/// rectangle on it and decoding that region.
extension ImageSource {
    /// `priced` (planned for `target` from `frame`) made to trim when its options ask for it: its peak the larger of
    /// its own and the reduced decode's. Unchanged otherwise.
    func trimming(_ priced: DecodePlan, target: ThumbnailTarget, frame: FractionalRect?) throws(ImageError)
        -> DecodePlan
    {
        guard priced.options.trim != nil else { return priced }
        let options = priced.options
        var look = ThumbnailOptions(mode: .fast, pixelFormat: .exactly(.rgba8), color: options.color)
        (look.rotation, look.appliesEXIFOrientation, look.useEmbeddedThumbnail) = (
            options.rotation, options.appliesEXIFOrientation, false
        )
        let preview = try decodePlan(.maxPixelSize(Trim.previewSide), region: frame, options: look)
        var placed = DecodePlan(
            plan: priced.plan, options: options, format: priced.format, route: priced.route,
            predictedPeakBytes: max(priced.predictedPeakBytes, preview.predictedPeakBytes),
            reservedBytes: priced.reservedBytes, fallback: priced.fallback)
        placed.attention = priced.attention
        placed.trim = TrimPlan(preview: preview, target: target, frame: frame, prescale: priced.plan.prescale)
        return placed
    }

    /// `chosen`'s image by its ``TrimPlan``: the reduced decode, the content's rectangle on it mapped back to the
    /// displayed image, and the target planned and decoded for that region.
    func imageByTrimming(_ chosen: DecodePlan, _ trim: TrimPlan, monitor: DecodeMonitor?) throws(ImageError)
        -> DecodedImage
    {
        let settings = chosen.options.trim ?? Trim()
        let preview = try image(trim.preview, monitor: monitor)
        let content = TrimFinder.content(of: preview.pixels, trim: settings)
        let frame = preview.plan.displayedRegion
        let sx = frame.width / Double(preview.size.width), sy = frame.height / Double(preview.size.height)
        let x = frame.x + Double(content.x) * sx, y = frame.y + Double(content.y) * sy
        let region = FractionalRect(
            x: x, y: y, width: min(Double(content.width) * sx, frame.x + frame.width - x),
            height: min(Double(content.height) * sy, frame.y + frame.height - y))
        var options = chosen.options
        options.trim = nil
        let trimmed = try decodePlan(trim.target, region: region, options: options, minimumPrescale: trim.prescale)
        let result = try image(trimmed, monitor: monitor)
        // Reports the charge the trim was admitted with (the reduced decode's peak or the untrimmed plan's).
        return DecodedImage(
            pixels: result.pixels, plan: result.plan, metadata: result.metadata,
            predictedPeakBytes: chosen.predictedPeakBytes, decodePath: result.decodePath, decoder: result.decoder,
            workingBytes: result.workingBytes, warnings: result.warnings, colorConversion: result.colorConversion)
    }
}
