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
        var settings = settings, image = image
        if settings.keepCopyright && !settings.keepEXIF, let exif = image.metadata.exif {
            // The copyright alone: a block of its own, written as EXIF is.
            var metadata = image.metadata
            metadata.exif = ExifCopyright.only(exif)
            settings.keepEXIF = metadata.exif != nil
            image = image.with(metadata: metadata)
        }
        let encoder = try codecs.encoder(for: settings)
        var bytes = try encoder.encode(image.pixels, metadata: image.metadata)
        if let limit = settings.maxBytes, bytes.count > limit, !settings.lossless,
            codecs.writer(for: settings.format)?.reads.contains(.quality) == true
        {
            bytes = try fitting(image, as: settings, within: limit, first: bytes)
        }
        telemetry.encodeTime = started.duration(to: .now)
        telemetry.encodedBytes = bytes.count
        telemetry.encoder = encoder.library
        return EncodedImage(bytes: bytes, format: settings.format, size: image.pixels.size)
    }

    /// `image` encoded at the highest quality below `settings.quality` whose bytes fit `limit`, found in at most
    /// ``OutputSettings/maxBytesEncodes`` encodes in all (`first`, at the asked quality, was one): quality 1 next (when
    /// even that does not fit, it is the answer), then a binary search between.
    private func fitting(_ image: DecodedImage, as settings: OutputSettings, within limit: Int, first: [UInt8])
        throws(ImageError) -> [UInt8]
    {
        func encoded(_ quality: Int) throws(ImageError) -> [UInt8] {
            var tried = settings
            tried.quality = quality
            return try codecs.encoder(for: tried).encode(image.pixels, metadata: image.metadata)
        }
        var fits = try encoded(1)
        guard fits.count <= limit else { return fits.count < first.count ? fits : first }
        var low = 2, high = settings.quality - 1, encodes = 2
        while low <= high && encodes < OutputSettings.maxBytesEncodes {
            let quality = (low + high + 1) / 2
            let bytes = try encoded(quality)
            encodes += 1
            if bytes.count <= limit {
                fits = bytes
                low = quality + 1
            } else {
                high = quality - 1
            }
        }
        return fits
    }
}
