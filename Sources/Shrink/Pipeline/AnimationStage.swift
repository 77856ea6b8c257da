import ShrinkCore

/// The pipeline's stage for a request for bytes whose output keeps animations (WebP) and whose source is an
/// animation within its limits: every frame composited and resampled one at a time (``ImageSource/animation(_:options:monitor:)``)
/// and handed to the writer's animation encoder, inside the job's charge, which the plan stage raised by
/// ``ImageSource/predictedAnimationBytes(output:)``. Any other request goes to the decode and encode stages.
struct AnimationStage: Sendable {
    /// The registry whose writers encode.
    let codecs: CodecRegistry

    /// True when `job`, planned as `planned`, is written as an animation.
    static func applies(to job: PipelineJob, source: ImageSource, codecs: CodecRegistry) -> Bool {
        guard let settings = job.output, source.info.frameCount > 1, source.animationLimitWarning == nil,
            job.request.region == nil, job.request.crop == nil
        else { return false }
        return codecs.writer(for: settings.format)?.accepts.contains(.animation) == true
    }

    /// Every frame of `job`'s source written as one animated file with `settings`; nil when the codec decodes no
    /// animation after all (the still path runs instead). Records the frames' decode and encode in `telemetry`.
    func encode(
        _ job: PipelineJob, _ planned: PlanStage.Planned, as settings: OutputSettings, waited: Duration,
        telemetry: inout ImageTelemetry
    ) throws(ImageError) -> EncodedImage? {
        let started = ContinuousClock.now
        telemetry.queueWait = waited
        telemetry.predictedPeakBytes = planned.charge
        job.monitor.beginMeasuring()
        let options = job.request.options
        guard let frames = try planned.source.animation(job.request.target, options: options, monitor: job.monitor),
            let chosen = try frames.encoder(for: settings, codecs: codecs)
        else { return nil }
        let bytes = try frames.encoded(with: chosen)
        telemetry.decodeTime = started.duration(to: .now)
        telemetry.bytesRead = planned.source.fileBytes
        telemetry.decodePath = .animationFrames
        telemetry.decoder = planned.chosen.route.decoder
        telemetry.encoder = chosen.library
        telemetry.encodedBytes = bytes.count
        telemetry.pixelFormat = .rgba8
        telemetry.bufferBytes = frames.frameBytes
        telemetry.measuredPeakBytes = job.monitor.peakBytes
        telemetry.frames = frames.durations.count
        return EncodedImage(bytes: bytes, format: settings.format, size: frames.size)
    }
}
