import ShrinkCore

/// An animation decoded one frame at a time at the size it is shown (``ImageSource/animation(_:options:monitor:)``): each
/// ``next()`` composites the next frame on the codec's canvas and resamples it as the still image would be (the same
/// plan, colour policy and pixel format), so memory stays flat however many frames there are: the codec's canvas,
/// one frame at the output size, and the resampler's rows.
///
/// ```swift
/// if let frames = try source.animation(.maxPixelSize(200)) {
///     let webp = try frames.encoded(with: WebPEncoder())
/// }
/// ```
public final class AnimationFrames {
    /// Every frame's size.
    public var size: PixelSize { chosen.finishedSize }
    /// Frames the file holds, counted from its header.
    public var frameCount: Int { source.info.frameCount }
    /// How many times the animation plays (0: forever; 1 when the file says nothing).
    public var loopCount: Int { decoder.loopCount }
    /// The metadata the frames carry into a file (the ICC profile after the colour policy; EXIF upright).
    public private(set) var metadata: ImageMetadata
    /// True when the frames are the source's own pixels, not resampled, and the source is a palette image (a GIF
    /// shown at its size): pixel art, whose exact colours a lossy 4:2:0 encoding smears; writers that have a lossless
    /// mode should use it (the CLI and the server do).
    public var keepsPalettePixels: Bool { !chosen.plan.resamples && source.info.colorModel == .palette }
    /// Damage stepped over and colour notes, one line each.
    public var warnings: [String] { decoder.warnings + notes }
    /// The durations of the frames ``next()`` has returned, in order (milliseconds).
    public private(set) var durations: [Int] = []
    /// Bytes one frame's pixels hold (the result's pixel format at ``size``).
    public var frameBytes: Int { chosen.format.byteCount(for: size) }

    private let source: ImageSource
    private let chosen: DecodePlan
    private let decoder: any AnimationDecoding
    private let monitor: DecodeMonitor?
    private var notes: [String] = []

    init(
        source: ImageSource, chosen: DecodePlan, decoder: any AnimationDecoding, monitor: DecodeMonitor?
    ) throws(ImageError) {
        self.source = source
        self.chosen = chosen
        self.decoder = decoder
        self.monitor = monitor
        metadata = try source.decoder.metadata().orientedUpright
    }

    /// The next frame, or nil after the last. Fails on damage in the first frame, with `.cancelled` when the monitor
    /// is cancelled; later damage ends the animation with a warning.
    public func next() throws(ImageError) -> AnimationFrame? {
        guard let duration = try decoder.advance() else { return nil }
        let rows = AnimationFrameRows(decoder)
        let route = DecodeRoute(
            path: .animationFrames, output: .rows(.rgba8), decodedSize: decoder.canvasSize, workingBytes: 0,
            stateBytes: 0, decoder: chosen.route.decoder
        ) { _, _ throws(ImageError) in .rows(rows) }
        let frame = DecodePlan(
            plan: chosen.plan, options: chosen.options, format: chosen.format, route: route,
            predictedPeakBytes: chosen.predictedPeakBytes, reservedBytes: 0, fallback: nil)
        let image = try source.image(frame, monitor: monitor)
        if decoder.framesRead == 1 {
            metadata = image.metadata
            notes = image.warnings.filter { !source.info.warnings.contains($0) }
        }
        durations.append(duration)
        return AnimationFrame(pixels: image.pixels, durationMilliseconds: duration, index: decoder.framesRead - 1)
    }

    /// The animation encoder for these frames with `settings` from `codecs`: the writer's, lossless when the frames
    /// keep a palette image's pixels (``keepsPalettePixels``) and the writer has a lossless mode; nil when the format
    /// keeps no animation.
    public func encoder(for settings: OutputSettings, codecs: CodecRegistry = .standard) throws(ImageError)
        -> (any AnimationEncoding)?
    {
        var settings = settings
        if keepsPalettePixels, codecs.writer(for: settings.format)?.reads.contains(.lossless) == true {
            settings.lossless = true
        }
        return try codecs.encoder(for: settings) as? any AnimationEncoding
    }

    /// Every remaining frame written by `encoder` into one file (``durations`` then lists the frames written).
    public func encoded(with encoder: some AnimationEncoding) throws(ImageError) -> [UInt8] {
        let writer = try encoder.startAnimation(
            size: size, frames: frameCount, loopCount: loopCount, metadata: metadata)
        while let frame = try next() {
            try writer.add(frame.pixels, durationMilliseconds: frame.durationMilliseconds)
        }
        return try writer.finish()
    }
}
