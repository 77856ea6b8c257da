import ShrinkCore

/// The pipeline's plan stage: a job's header read, its plan against what is left of the budget (with the route
/// that plan decodes by, and the encoder's bytes for a request for bytes), the charge the decode is admitted
/// with, and the key of the result the plan makes. Runs once per job, before any pixel memory exists.
struct PlanStage: Sendable {
    /// The pipeline's budget: no plan is charged more.
    let budget: Int
    /// The registry sources are opened and results' encoders priced with.
    let codecs: CodecRegistry
    /// The threads a decode may borrow while others idle (the pipeline's decode threads, within its budget).
    let helpers: any DecodeHelping

    /// What the plan stage decided for a job.
    struct Planned: Sendable {
        /// The open source the decode reads.
        let source: ImageSource
        /// The plan, its route and its price (``DecodePlan``).
        let chosen: DecodePlan
        /// What the decode is admitted with: the plan's predicted peak, the encoder's predicted bytes for a
        /// request for bytes, and the source's bytes when they are held in memory (not mapped).
        let charge: Int
        /// The job is written as an animation (``AnimationStage/applies(to:source:codecs:)``), charged for it.
        let animates: Bool
    }

    /// Reads `bytes`' header (or takes the request's open source), plans within the budget, and records the
    /// job's result key (``resultKey(of:plan:)``; none for a fallback plan, whose result is not the one asked
    /// for). Fails as the decode would before it starts.
    func plan(_ job: PipelineJob, bytes: ImageBytes) throws(ImageError) -> Planned {
        let request = job.request
        // An open source (an awaited `ImageSource` call) is planned as it is; anything else is opened here.
        var source: ImageSource
        if let open = (request.loader as? SourceLoader)?.source {
            source = open
        } else {
            source = try ImageSource(bytes: bytes, name: request.loader.name, limits: request.limits, codecs: codecs)
        }
        if request.page != 0 { source = try source.page(request.page) }
        let region = try Self.region(of: request, in: source)
        // Bytes in memory (an upload, a download) are held until the decode ends; so is the encoder's working
        // memory for a request for bytes: both come out of the budget before the decode's plan.
        let held = bytes.isPageAlignedMapping ? 0 : bytes.count
        let output = job.output, codecs = codecs
        let animates = AnimationStage.applies(to: job, source: source, codecs: codecs)
        var options = request.options
        options.helpers = helpers
        let chosen = try source.plan(
            request.target, region: region, options: options, within: budget,
            reserving: { plan throws(ImageError) in
                guard let output else { return held }
                let finished = request.options.finishing.finishedSize(of: plan.outputSize)
                let animation = animates ? source.predictedAnimationBytes(output: finished) : 0
                return try held + animation + codecs.predictedEncodeBytes(for: finished, settings: output)
            })
        if chosen.fallback == nil { job.resultKey = Self.resultKey(of: job, plan: chosen) }
        return Planned(
            source: source, chosen: chosen, charge: chosen.predictedPeakBytes + chosen.reservedBytes,
            animates: animates)
    }

    /// The key of the result `job` makes with `chosen`, from the header: the source's identity, what the plan
    /// decodes (output size, stored region, orientation, prescale) and the options that shape its pixels; for
    /// bytes, the output settings after them. A request spelled differently (a box and a long side, say) that
    /// plans the same output has the same result key.
    static func resultKey(of job: PipelineJob, plan chosen: DecodePlan) -> CacheKey {
        let p = chosen.plan, r = p.storedRegion
        // shortest round-trip spelling
        let region = [r.x, r.y, r.width, r.height].map { String($0) }.joined(separator: ",")
        let key = job.key.keeping(["src"]).appending(
            [
                ("out", "\(p.outputSize.width)x\(p.outputSize.height)"), ("region", region),
                ("o", String(p.orientation.rawValue)),
                ("pre", String(p.prescale)),
            ] + chosen.options.pixelKeyFields)
        return job.output.map { key.appending($0.keyFields) } ?? key
    }

    /// The request's region: its absolute one, or its crop resolved against the (rotated) displayed size.
    static func region(of request: ImageRequest, in source: ImageSource) throws(ImageError) -> FractionalRect? {
        guard let crop = request.crop else {
            return try source.fractional(request.region, rotation: source.rotation(under: request.options))
        }
        guard request.region == nil else {
            throw ImageError(.invalidArgument, "\(request.loader.name): a request takes a region or a crop, not both")
        }
        let displayed = source.displayedSize(rotatedBy: source.rotation(under: request.options))
        return crop.rect(in: displayed)
    }
}
