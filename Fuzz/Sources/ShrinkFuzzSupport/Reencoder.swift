import Shrink

/// Encodes a fuzzed decode's result with one of the registry's writers, keeping its ICC profile and EXIF block:
/// hostile metadata read from the input reaches the encoders' marker and chunk writers. A writer added to the
/// registry is reached without a line here.
public enum Reencoder {
    /// Encodes `image` as `choice` says: bit 0 off → not at all; bits 1–3 pick a writable format of
    /// ``CodecRegistry/standard`` (every one is reached); bit 4 asks for lossless, progressive, 16-bit output
    /// (each writer reads what applies to it); bit 5 for optimised Huffman tables. Errors are expected and dropped.
    public static func encode(_ image: DecodedImage, choice: UInt8) {
        guard choice & 1 != 0 else { return }
        let writers = CodecRegistry.standard.codecs.compactMap { codec in codec.writer.map { (codec.format, $0) } }
        guard !writers.isEmpty else { return }
        let (format, writer) = writers[Int(choice >> 1 & 7) % writers.count]
        let rich = choice & 16 != 0
        var settings = OutputSettings(format: format, quality: 75, progressive: rich, optimizeCoding: choice & 32 != 0)
        settings.lossless = rich
        settings.bitDepth = rich ? 16 : nil
        settings.compressionLevel = 1
        settings.keepEXIF = true
        _ = try? image.encoded(as: writer.encoder(for: settings))
    }

    /// Decodes every frame of `frames`; when `choice`'s bit 0 is set, writes them with one of the registry's writers
    /// that keep animations (bits 1–3 pick it, bit 4 asks for lossless, bit 5 for dithered frames). Every frame must
    /// have the animation's size.
    public static func encode(_ frames: AnimationFrames, choice: UInt8) {
        let animators = CodecRegistry.standard.codecs.compactMap { codec -> (ImageFormat, ImageWriter)? in
            guard let writer = codec.writer, writer.accepts.contains(.animation) else { return nil }
            return (codec.format, writer)
        }
        var writer: (any AnimationWriting)?
        if choice & 1 != 0, !animators.isEmpty {
            let (format, chosen) = animators[Int(choice >> 1 & 7) % animators.count]
            var settings = OutputSettings(format: format, quality: 75)
            settings.lossless = choice & 16 != 0
            settings.formatOptions["dither"] = choice & 32 != 0 ? "on" : "auto"
            writer = try? (chosen.encoder(for: settings) as? any AnimationEncoding)?.startAnimation(
                size: frames.size, frames: frames.frameCount, loopCount: frames.loopCount, metadata: frames.metadata)
        }
        while let frame = try? frames.next() {
            precondition(frame.pixels.size == frames.size, "an animation frame of another size than the animation's")
            try? writer?.add(frame.pixels, durationMilliseconds: frame.durationMilliseconds)
        }
        _ = try? writer?.finish()
    }
}
