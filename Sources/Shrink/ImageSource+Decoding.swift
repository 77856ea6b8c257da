import ShrinkColor
import ShrinkCore

/// Decoding a plan, and the embedded thumbnail that may stand in for the image.
extension ImageSource {
    /// Runs `plan` (made by ``plan(_:region:options:)`` with the same `options`) along the route
    /// ``decodePlan(_:options:)`` chooses for it.
    package func image(
        _ plan: ThumbnailPlan, options: ThumbnailOptions = ThumbnailOptions(),
        monitor: DecodeMonitor? = nil
    ) throws(ImageError) -> DecodedImage {
        try image(decodePlan(plan, options: options), monitor: monitor)
    }

    /// Runs `chosen` along its route and nothing else: the planar or row renderer, the pixel format conversion,
    /// colour management, the strict check. The result reports the route's path, decoder and working bytes.
    package func image(_ chosen: DecodePlan, monitor: DecodeMonitor? = nil) throws(ImageError) -> DecodedImage {
        if let trim = chosen.trim { return try imageByTrimming(chosen, trim, monitor: monitor) }
        if let crop = chosen.attention { return try imageByAttention(chosen, crop, monitor: monitor) }
        let (plan, options, format, route) = (chosen.plan, chosen.options, chosen.format, chosen.route)
        do throws(ImageError) {
            try monitor?.checkpoint(row: 0)
            var metadata = try decoder.metadata().orientedUpright
            let ink = inkConversion(options.color, profile: metadata.iccProfile)
            let decode = DecodeOptions(
                fast: options.mode == .fast, strict: options.strict, memoryLimit: limits.maxWorkingBytes,
                inkConverter: ink, helpers: options.helpers)
            defer { bytes.releaseResidentPages() }
            var pixels: PixelBuffer
            var warnings = info.warnings
            var early: ColorConvertingRows?
            let region = decodedRegion(of: plan, route: route)
            switch try route.start(options: decode, monitor: monitor) {
            case .planes(let planes):
                // Y, Cb, Cr straight from the decoder: no RGB image at any size.
                let planar = try PlanarRenderer.render(plan, from: planes, region: region, monitor: monitor)
                warnings += planes.warnings
                pixels = format == .nv12 ? PixelConverter.convert(planar, to: .nv12) : planar
            case .rows(let decoded):
                var rows: any RowDecoding = decoded
                if let transform = earlyColor(options.color, rowFormat: decoded.format, metadata: metadata) {
                    early = ColorConvertingRows(decoded, transform: transform)
                    rows = early!
                }
                let rendered = try RowRenderer.render(
                    plan, from: rows, as: rendersDirectly(format, rows: rows.format) ? format : decoder.outputFormat,
                    region: region, monitor: monitor)
                warnings += rows.warnings
                pixels = rendered.format == format ? rendered : PixelConverter.convert(rendered, to: format)
            }
            if options.pixelFormat == .memoryOptimized && PixelFormatRequest.isMask(pixels) {
                pixels = PixelConverter.convert(pixels, to: .alpha8)
            }
            let conversion =
                ink?.result // CMYK: converted as decoded
                ?? early.map { $0.transform.result(elapsed: $0.elapsed) } // converted before the resampler
                ?? ColorManagement.apply(
                    options.color, to: &pixels, profile: colorProfile(metadata, for: pixels.format))
            metadata.iccProfile = conversion.profile
            monitor?.notePeak()
            try checkInput()
            if options.strict, let first = warnings.first {
                throw ImageError(.corruptData, "\(name): \(first) (strict decoding)")
            }
            if let warning = conversion.warning { warnings.append(warning) } // a profile not applied is no damage
            pixels = try options.finishing.apply(to: pixels)
            return DecodedImage(
                pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: chosen.predictedPeakBytes,
                decodePath: route.path, decoder: route.decoder, workingBytes: route.workingBytes,
                helperBytes: options.helpers == nil ? 0 : route.helperBytes, warnings: warnings,
                colorConversion: conversion.conversion)
        } catch {
            try checkInput()
            throw error.naming(name)
        }
    }

    /// The embedded thumbnail (EXIF's, or an image of its own such as HEIF's `thmb` item) as a source, when
    /// `options` allow it (``ThumbnailOptions/useEmbeddedThumbnail``) and it can stand in for this image at
    /// `target`: at least the target's size on both axes (stored orientation, never upscaled), the image's
    /// aspect ratio within 1 %, and the same output size as the image itself would give.
    func embeddedThumbnail(for target: ThumbnailTarget, options: ThumbnailOptions) throws(ImageError) -> ImageSource? {
        guard options.allowsEmbeddedThumbnail, let stored = info.embeddedThumbnail else { return nil }
        switch target {
        case .maxPixelSize, .box: break
        case .original, .prescale: return nil
        }
        guard stored.hasShape(of: info.size, tolerance: 0.01) else { return nil }
        let planned = try plan(target, region: nil, options: options)
        guard stored.width >= planned.storedOutputSize.width, stored.height >= planned.storedOutputSize.height else {
            return nil
        }
        func standsIn(_ source: ImageSource) throws(ImageError) -> Bool {
            var oriented = source.info
            oriented.orientation = info.orientation
            let plan = try ThumbnailPlan(
                info: oriented, target: target, options: options, prescales: source.decoder.scaleDenominators,
                scaledSize: source.decoder.scaledSize(denominator:),
                filteredPrescales: source.decoder.reducedImagesAreFiltered)
            return source.info.size == stored && plan.outputSize == planned.outputSize
        }
        if let own = decoder.embeddedThumbnail() {
            let source = ImageSource(
                decoder: own, bytes: bytes, name: "\(name) (embedded thumbnail)", limits: limits, codec: codec)
            return try standsIn(source) ? source : nil
        }
        guard let bytes = decoder.embeddedThumbnailBytes(),
            let source = try? ImageSource(
                bytes: ImageBytes(bytes, name: "\(name) (EXIF thumbnail)"), name: "\(name) (EXIF thumbnail)",
                limits: limits, codecs: CodecRegistry([codec]))
        else { return nil }
        return try standsIn(source) ? source : nil
    }

    /// Decodes this (embedded thumbnail) source to `target` as if it were displayed with `orientation`, with
    /// the main image's `metadata`.
    func image(
        _ target: ThumbnailTarget, options: ThumbnailOptions, monitor: DecodeMonitor?,
        orientation: ImageOrientation, metadata: ImageMetadata
    ) throws(ImageError) -> DecodedImage {
        var oriented = info
        oriented.orientation = orientation
        let plan = try ThumbnailPlan(
            info: oriented, target: target, options: options, prescales: decoder.scaleDenominators,
            scaledSize: decoder.scaledSize(denominator:),
            filteredPrescales: decoder.reducedImagesAreFiltered)
        var kept = options
        kept.color = .keep // the thumbnail is in the image's colours: its profile applies
        kept.finishing = Finishing() // finished once converted, below
        let decoded = try image(plan, options: kept, monitor: monitor)
        var pixels = decoded.pixels, metadata = metadata, warnings = decoded.warnings
        let conversion = ColorManagement.apply(
            options.color, to: &pixels, profile: colorProfile(metadata, for: pixels.format))
        pixels = try options.finishing.apply(to: pixels)
        metadata.iccProfile = conversion.profile
        if let warning = conversion.warning { warnings.append(warning) }
        return DecodedImage(
            pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: decoded.predictedPeakBytes,
            decodePath: .embeddedThumbnail, decoder: decoded.decoder, workingBytes: decoded.workingBytes,
            warnings: warnings,
            colorConversion: conversion.conversion)
    }
}
