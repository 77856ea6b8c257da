import ShrinkColor
import ShrinkCore
import ShrinkResample

/// Planning: what a decode will do and what it will cost, from the header alone. The route a plan names is the
/// one the decode takes and the one the prediction reads, so the two cannot drift apart.
extension ImageSource {
    /// Plans ``image(_:region:options:)``'s decode from the header alone, allocating nothing of pixel size:
    /// the output size, the decoder's prescale and the region it reads. Fails as that decode would before it
    /// starts: `.invalidArgument` for an empty target or a region outside the image, `.limitExceeded` when
    /// the source or the output has more than ``ImageLimits/maxPixels`` pixels, `.memoryBudgetExceeded` when
    /// the decoder's working memory exceeds ``ImageLimits/maxWorkingBytes``.
    public func plan(
        _ target: ThumbnailTarget = .original, region: PixelRect? = nil,
        options: ThumbnailOptions = ThumbnailOptions()
    ) throws(ImageError) -> ThumbnailPlan {
        do {
            return try plan(
                target, region: try fractional(region, rotation: rotation(under: options)), options: options)
        } catch {
            throw error.naming(name)
        }
    }

    /// ``plan(_:region:options:)`` for a region the planner already holds.
    package func plan(
        _ target: ThumbnailTarget, region: FractionalRect?, options: ThumbnailOptions,
        minimumPrescale: Int = 1
    ) throws(ImageError) -> ThumbnailPlan {
        try decodePlan(target, region: region, options: options, minimumPrescale: minimumPrescale).plan
    }

    /// The plan for `target` with its route and price (``DecodePlan``): the geometry, then the route the codec
    /// chooses for it — the one place a decode's route is chosen — checked against
    /// ``ImageLimits/maxWorkingBytes``, then the peak that route predicts.
    package func decodePlan(
        _ target: ThumbnailTarget, region: FractionalRect?, options: ThumbnailOptions,
        minimumPrescale: Int = 1
    ) throws(ImageError) -> DecodePlan {
        try limits.check(info.size, path: name)
        var info = self.info
        info.orientation = info.orientation.followed(by: rotation(under: options))
        let plan = try ThumbnailPlan(
            info: info, target: target, options: options, prescales: decoder.scaleDenominators,
            scaledSize: decoder.scaledSize(denominator:),
            filteredPrescales: decoder.reducedImagesAreFiltered, crop: region, minimumPrescale: minimumPrescale)
        // An upscaled output is bounded by the same limit as a source.
        try limits.check(plan.outputSize, path: name, what: "output")
        try options.finishing.validate()
        let priced = try trimming(decodePlan(plan, options: options), target: target, frame: region)
        try limits.check(priced.finishedSize, path: name, what: "finished output")
        try limits.check(resultSize: priced.finishedSize, path: name)
        try limits.check(
            workingBytes: priced.route.workingBytes, for: "decoding (\(priced.route.path) route)", path: name)
        return priced
    }

    /// `plan` under `options` with its route and price (``DecodePlan``), no limit checked.
    package func decodePlan(_ plan: ThumbnailPlan, options: ThumbnailOptions) -> DecodePlan {
        let format = options.pixelFormat.resolve(for: info, native: decoder.outputFormat)
        let route = route(for: plan, format: format, color: options.color, helped: options.helpers != nil)
        // Finishing runs after the decode, beside its result.
        let finishing =
            options.finishing.isEmpty
            ? 0 : format.byteCount(for: plan.outputSize) + options.finishing.predictedBytes(for: plan.outputSize)
        let priced = DecodePlan(
            plan: plan, options: options, format: format, route: route,
            predictedPeakBytes: max(
                finishing, predictedPeakBytes(for: plan, format: format, route: route, color: options.color)),
            reservedBytes: 0, fallback: nil)
        // A window placed by attention decodes the frame's cover size instead (a cover plan cannot fail where this
        // one did not; if it did, the centred window stands).
        return (try? placingByAttention(priced)) ?? priced
    }

    /// The plan for `target` whose predicted peak, with the bytes `reserving` says its caller holds beside it
    /// (an encoder's, from the plan's output size, which no fallback changes), fits `budget` bytes: the plan
    /// `options` ask for when it fits; otherwise the cheapest that does, tried in order — fast mode (the nearest
    /// DCT scale, which takes the DC-first path for a progressive JPEG at 1/8), then each coarser DCT scale (the
    /// resampler enlarges to the target: softer, but shown) — with ``DecodePlan/fallback`` saying which. Fails
    /// with `.memoryBudgetExceeded` only when no plan fits (a progressive JPEG's coefficient buffer, say). This
    /// is how ``ImagePipeline`` plans each request against what is left of its budget.
    package func plan(
        _ target: ThumbnailTarget = .original, region: PixelRect? = nil, options: ThumbnailOptions = ThumbnailOptions(),
        within budget: Int, reserving: (ThumbnailPlan) throws(ImageError) -> Int = { _ in 0 }
    ) throws(ImageError) -> DecodePlan {
        do {
            return try plan(
                target, region: try fractional(region, rotation: rotation(under: options)), options: options,
                within: budget,
                reserving: reserving)
        } catch {
            throw error.naming(name)
        }
    }

    /// ``plan(_:region:options:within:reserving:)`` for a region the planner already holds.
    package func plan(
        _ target: ThumbnailTarget, region: FractionalRect?, options: ThumbnailOptions,
        within budget: Int, reserving: (ThumbnailPlan) throws(ImageError) -> Int = { _ in 0 }
    ) throws(ImageError) -> DecodePlan {
        let requested = try decodePlan(target, region: region, options: options)
        let reserved = try reserving(requested.plan)
        let room = budget - reserved
        if requested.predictedPeakBytes <= room { return requested.with(reserved: reserved, fallback: nil) }
        var cheapest = requested
        var fast = options
        fast.mode = .fast
        var tries: [(Int, String)] = options.mode == .fast ? [] : [(1, "fast mode")]
        if case .prescale = target {
        } else {
            tries += decoder.scaleDenominators.filter { $0 > requested.plan.prescale }.sorted().map {
                ($0, "DCT scale 1/\($0)")
            }
        }
        for (minimum, name) in tries {
            guard let next = try? decodePlan(target, region: region, options: fast, minimumPrescale: minimum) else {
                continue
            }
            if next.predictedPeakBytes <= room {
                let dcFirst = next.route.path == .dcFirst ? " (DC-first)" : ""
                return next.with(reserved: reserved, fallback: name + dcFirst)
            }
            if next.predictedPeakBytes < cheapest.predictedPeakBytes { cheapest = next }
        }
        throw ImageError(
            .memoryBudgetExceeded,
            "\(self.name): the cheapest plan needs \(ImageLimits.mebibytes(cheapest.predictedPeakBytes)), above the \(ImageLimits.mebibytes(max(1, room))) left of the pipeline's budget (ImagePipeline.Configuration.budget)"
        )
    }

    /// The peak bytes ``image(_:region:options:)`` is predicted to hold for `plan` under `options` (its pixel
    /// format and colour policy), from the header alone: the result, the decoder's working memory and library
    /// state, a strip of rows, the resampler's rows, and any whole-image conversion. Allocator overhead is not
    /// included. The pipeline charges a decode this much against its budget; the same route decodes.
    ///
    /// ```swift
    /// let plan = try source.plan(.maxPixelSize(400))
    /// print(plan.outputSize, source.predictedPeakBytes(for: plan))
    /// ```
    public func predictedPeakBytes(for plan: ThumbnailPlan, options: ThumbnailOptions = ThumbnailOptions()) -> Int {
        decodePlan(plan, options: options).predictedPeakBytes
    }

    /// The peak bytes a decode of `plan` into `format` along `route` is predicted to hold, from the header
    /// alone: the result, the route's working memory (progressive coefficients, an interlaced grid, a scaled
    /// frame) and library state (``DecodeRoute``), one strip or row group of decoded rows, the resampler's rows,
    /// and a whole-image conversion when the rows cannot be delivered in `format` as they come, and, after the
    /// decode, the copies a colour conversion under `color` makes of a format it cannot transform in place
    /// (``ColorManagement/extraBytes(for:size:)``). Allocator overhead is not included.
    func predictedPeakBytes(for plan: ThumbnailPlan, format: PixelFormat, route: DecodeRoute, color: ColorPolicy) -> Int
    {
        let result = format.byteCount(for: plan.outputSize)
        let tagged = info.iccProfileBytes > 0 || info.codedColor != nil
        let converting =
            ColorManagement.mayConvert(color, tagged: tagged)
            ? result + ColorManagement.extraBytes(for: format, size: plan.outputSize) : 0
        var peak = result + route.workingBytes + route.stateBytes
        if info.colorModel.isInk { peak += InkConversion.stateBytes }
        switch route.output {
        case .planes:
            peak += plan.decodedSize.width * 3 * RowRenderer.stripRows + Self.planeResamplerBytes(plan)
            if format == .nv12 { peak += result }
        case .rows(let rows):
            peak += plan.decodedSize.width * max(rows.bytesPerPixel, 3) * RowRenderer.stripRows
            if plan.resamples {
                peak += StreamingResampler.predictedBytes(
                    inputSize: plan.decodedSize, format: rows,
                    outputSize: plan.storedOutputSize, region: plan.decodedRegion)
            }
            if !rendersDirectly(format, rows: rows) { peak += decoder.outputFormat.byteCount(for: plan.outputSize) }
        }
        return max(peak, converting)
    }

    /// The three plane resamplers of a planar decode of `plan`, with the geometry ``PlanarRenderer`` gives them
    /// (``PlanarRenderer/plane(_:sampled:lumaRegion:stored:)``). The chroma sampling is not known before the
    /// decoder runs, so each chroma plane is predicted at the largest of 4:4:4, 4:2:2, 4:4:0 and 4:2:0 (for one
    /// channel the ring follows the columns read, which the sampling sets).
    static func planeResamplerBytes(_ plan: ThumbnailPlan) -> Int {
        let source = plan.decodedSize
        func bytes(_ i: Int, sampled f: (x: Double, y: Double)) -> Int {
            let (target, region) = PlanarRenderer.plane(
                i, sampled: f, lumaRegion: plan.decodedRegion, stored: plan.storedOutputSize)
            let size = PixelSize(
                width: Int((Double(source.width) * f.x).rounded(.up)),
                height: Int((Double(source.height) * f.y).rounded(.up)))
            return StreamingResampler.predictedBytes(
                inputSize: size, format: .gray8, outputSize: target, region: region, kernel: PlanarRenderer.kernel(i))
        }
        let chroma = [(1.0, 1.0), (0.5, 1.0), (1.0, 0.5), (0.5, 0.5)].map { bytes(1, sampled: $0) }.max()!
        return bytes(0, sampled: (1, 1)) + 2 * chroma
    }

    /// The route a decode of `plan` into `format` takes, as the codec chooses it from the header: the one
    /// value both the decode and the memory prediction use.
    /// Under `color`, a profile too steep to convert after the reduction (``ColorManagement/beforeResampling(_:profile:rowFormat:)``)
    /// takes rows, which are converted before the resampler, even where planes would serve.
    /// `helped`: the decode may be lent helper threads.
    package func route(for plan: ThumbnailPlan, format: PixelFormat, color: ColorPolicy = .sRGB, helped: Bool = false)
        -> DecodeRoute
    {
        let window = plan.storedRegion == FractionalRect(info.size) ? nil : plan.decodingWindow
        let planar =
            (format == .yuv420 || format == .nv12) && earlyColor(color, rowFormat: decoder.outputFormat) == nil
            && !decodesDeepForColor(color)
        return decoder.route(
            RouteRequest(
                scaleDenominator: plan.prescale, wantsPlanes: planar,
                wantsSixteenBit: format == .rgba16 || decodesDeepForColor(color), window: window, helped: helped))
    }

    /// The transform decoded rows of `rowFormat` need before the resampler under `color`, when the image's
    /// profile is too steep to convert after it; nil otherwise (most profiles, and untagged images). `metadata`:
    /// the decoder's, when the caller has it (else it is read again, copying the profile).
    package func earlyColor(_ color: ColorPolicy, rowFormat: PixelFormat, metadata: ImageMetadata? = nil)
        -> ColorRowTransform?
    {
        guard color != .keep, info.iccProfileBytes > 0 || info.codedColor != nil else { return nil }
        let read = metadata ?? (info.iccProfileBytes > 0 ? try? decoder.metadata() : nil)
        guard let profile = colorProfile(read, for: rowFormat) else { return nil }
        return ColorManagement.beforeResampling(
            color, profile: profile, rowFormat: rowFormat, always: decodesDeepForColor(color))
    }

    /// True when `color` converts an HDR source (PQ or HLG, more than 8 bits): its rows are decoded at 16 bits and
    /// converted before the resampler, so the steep curve works on the coded precision, not on 8-bit levels.
    package func decodesDeepForColor(_ color: ColorPolicy) -> Bool {
        color != .keep && info.bitsPerComponent > 8 && info.codedColor?.isHighDynamicRange == true
    }

    /// The profile the pixels are in: the embedded ICC profile, else the one equivalent to what the file codes
    /// without one (``ImageInfo/codedColor``: HEIF `nclx`, PNG `cICP`, `gAMA`/`cHRM`; made for gray or colour
    /// as `format` is), else nil (sRGB).
    package func colorProfile(_ metadata: ImageMetadata?, for format: PixelFormat) -> [UInt8]? {
        if let icc = metadata?.iccProfile { return icc }
        return info.codedColor.flatMap { CodedColorProfiles.profile(for: $0, gray: format.isGray)?.bytes }
    }

    /// For CMYK images tagged with `profile`, how their ink becomes RGB under `color` (the codec runs it on the
    /// decoded rows, before the resampler); nil for the others.
    package func inkConversion(_ color: ColorPolicy, profile: [UInt8]?) -> InkConversion? {
        guard info.colorModel.isInk else { return nil }
        return ColorManagement.inkConversion(color, profile: profile)
    }

    /// The part of the route's decoded image that `plan` resamples: the plan's block geometry, or the exact
    /// fraction of a scaler that maps the source (or the part of it the route crops) uniformly.
    func decodedRegion(of plan: ThumbnailPlan, route: DecodeRoute) -> FractionalRect {
        guard route.geometry == .uniform else { return plan.decodedRegion }
        let source = route.sourceRect ?? FractionalRect(info.size)
        let sx = Double(route.decodedSize.width) / source.width
        let sy = Double(route.decodedSize.height) / source.height
        let r = plan.storedRegion
        return FractionalRect(
            x: (r.x - source.x) * sx, y: (r.y - source.y) * sy, width: r.width * sx, height: r.height * sy)
    }

    /// True when `rows` can be delivered in `format` as they are written: row conversion covers adding or
    /// dropping alpha and RGB → YUV, and 16-bit rows stay 16-bit; anything else (gray from colour,
    /// premultiplied) converts the finished image.
    func rendersDirectly(_ format: PixelFormat, rows: PixelFormat) -> Bool {
        format == decoder.outputFormat || format == .rgb8 || format == .rgba8 || format.isPlanar
            || (format == .rgba16 && rows == .rgba16)
    }
}
