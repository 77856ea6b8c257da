import ShrinkCore

/// The pipeline's encode stage, for a request for bytes: the decoded image encoded with the request's output
/// settings by the registry's writer for them, on the decode thread inside the job's charge (which holds the
/// writer's predicted bytes).
struct EncodeStage: Sendable {
    /// The registry whose writers encode.
    let codecs: CodecRegistry

    /// `image` encoded as `settings` say, recording the encode's time and size in `telemetry`. Fails with
    /// `.cancelled` when every task waiting for `job` has gone.
    func encode(
        _ image: DecodedImage, of job: PipelineJob, as settings: OutputSettings, telemetry: inout ImageTelemetry
    ) throws(ImageError) -> EncodedImage {
        guard !job.monitor.isCancelled else {
            throw ImageError(.cancelled, "\(job.request.loader.name): request cancelled", name: job.request.loader.name)
        }
        let started = ContinuousClock.now
        let encoder = try codecs.encoder(for: settings)
        let bytes = try encoder.encode(image.pixels, metadata: image.metadata)
        telemetry.encodeTime = started.duration(to: .now)
        telemetry.encodedBytes = bytes.count
        telemetry.encoder = encoder.library
        return EncodedImage(bytes: bytes, format: settings.format, size: image.pixels.size)
    }
}
