import ShrinkCore

/// The pipeline's decode stage, on a decode thread once the job is admitted with its charge: the planned
/// route runs (decoding straight to the output size: prescale, rows streamed into the resampler, orientation
/// and colour applied once, ``ImageSource/image(_:monitor:)``), or, for a request for pixels, the disk tier's
/// entry for it is decoded instead. Fills the telemetry of what ran.
struct DecodeStage: Sendable {
    let store: ResultStore

    /// Decodes `job`'s image as `planned` says, admitted after `waited`, and records what ran in `telemetry`.
    func decode(_ job: PipelineJob, _ planned: PlanStage.Planned, waited: Duration, telemetry: inout ImageTelemetry)
        throws(ImageError) -> DecodedImage
    {
        let chosen = planned.chosen
        let started = ContinuousClock.now
        defer { telemetry.decodeTime = started.duration(to: .now) }
        telemetry.fallback = chosen.fallback
        telemetry.queueWait = waited
        telemetry.predictedPeakBytes = planned.charge
        telemetry.prescale = chosen.plan.prescale
        job.monitor.beginMeasuring()
        let image: DecodedImage
        if job.output == nil, let entry = diskEntry(for: job, planned) {
            telemetry.origin = .diskCache
            telemetry.bytesRead = entry.bytes
            image = entry.image
        } else {
            image = try planned.source.image(chosen, monitor: job.monitor)
            telemetry.bytesRead = planned.source.fileBytes
            (telemetry.decodePath, telemetry.decoder, telemetry.colorConversion) = (
                image.decodePath, image.decoder, image.colorConversion
            )
        }
        telemetry.pixelFormat = image.pixels.format
        telemetry.bufferBytes = image.pixels.byteCount
        telemetry.measuredPeakBytes = job.monitor.peakBytes
        return image
    }

    /// The image from the disk tier's entry for `job` (a request for pixels), decoded in the request's pixel
    /// format policy at the planned size; nil on a miss, or for an entry of another size or one that does not
    /// decode (the cache drops a damaged entry itself).
    private func diskEntry(for job: PipelineJob, _ planned: PlanStage.Planned) -> (image: DecodedImage, bytes: Int)? {
        guard let data = store.diskEntry(job.key, request: job.request) else { return nil }
        let plan = planned.chosen.plan
        do {
            let entry = try ImageSource(
                bytes: data, name: "\(job.request.loader.name) (disk cache)", codecs: store.codecs)
            guard entry.info.displayedSize == planned.chosen.finishedSize else { return nil }
            var options = job.request.options
            options.allowUpscaling = false
            (options.minimumSize, options.finishing) = (nil, Finishing()) // the entry is the finished image
            let pixels = try entry.image(.original, region: nil, options: options, monitor: job.monitor).pixels
            let metadata = try planned.source.decoder.metadata().orientedUpright
            let image = DecodedImage(
                pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: planned.charge)
            return (image, data.count)
        } catch {
            return nil
        }
    }
}
