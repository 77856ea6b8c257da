import Shrink
import ShrinkTestSupport
import Testing

/// A codec registered from this test target (farbfeld, in `Farbfeld/`) reads and writes wherever a registry is
/// passed, through the same planner, resampler and pipeline as Shrink's own.
@Suite struct CustomCodecTests {
    static let codecs = CodecRegistry.standard.adding(.farbfeld)

    /// A 16-bit pattern with alpha, as PNG (Shrink's own codec) and as farbfeld (the test's).
    static func pattern() throws -> (png: [UInt8], farbfeld: [UInt8]) {
        let size = PixelSize(width: 97, height: 61)
        var samples = [UInt16](repeating: 0, count: size.pixelCount * 4)
        for i in 0..<size.pixelCount {
            let x = i % size.width, y = i / size.width
            samples[4 * i] = UInt16((x * 673) % 65536)
            samples[4 * i + 1] = UInt16((y * 1069) % 65536)
            samples[4 * i + 2] = UInt16(((x + y) * 331) % 65536)
            samples[4 * i + 3] = UInt16(x < 10 ? 30000 : 65535)
        }
        let pixels = PixelBuffer(format: .rgba16, size: size, bytes: samples.withUnsafeBytes { Array($0) })
        return (try PNGEncoder().encode(pixels), try FarbfeldEncoder().encode(pixels, metadata: ImageMetadata()))
    }

    @Test func aRegisteredCodecDecodesLikeABuiltInOne() throws {
        let (png, farbfeld) = try Self.pattern()
        let ours = try ImageSource(bytes: ImageBytes(farbfeld), name: "pattern.ff", codecs: Self.codecs)
        #expect(ours.info.format == .farbfeld && ours.info.size == PixelSize(width: 97, height: 61))
        let options = ThumbnailOptions(pixelFormat: .exactly(.rgba16))
        let thumb = try ours.thumbnail(maxPixelSize: 40, options: options)
        let reference = try ImageSource(bytes: ImageBytes(png), name: "pattern.png").thumbnail(
            maxPixelSize: 40, options: options)
        #expect(thumb.decodePath == .rows && thumb.decoder == "farbfeld (test)")
        #expect(thumb.size == PixelSize(width: 40, height: 25) && thumb.pixels.bytes == reference.pixels.bytes)
        #expect(thumb.predictedPeakBytes >= thumb.pixels.byteCount)
    }

    @Test func thePipelineReadsAndWritesThroughItsRegistry() async throws {
        let (_, farbfeld) = try Self.pattern()
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil, codecs: Self.codecs))
        let request = ImageRequest(
            loader: BytesLoader(bytes: ImageBytes(farbfeld), name: "pattern.ff"), target: .maxPixelSize(30))
        let response = try await pipeline.encodedImage(for: request, as: OutputSettings(format: .farbfeld))
        #expect(response.image.format == .farbfeld && response.telemetry.decoder == "farbfeld (test)")
        let back = try ImageSource(bytes: ImageBytes(response.image.bytes), name: "out.ff", codecs: Self.codecs)
        #expect(back.info.size == PixelSize(width: 30, height: 19))
        // The standard registry knows neither the file nor the output format.
        #expect(throws: ImageError.self) { try ImageSource(bytes: ImageBytes(farbfeld), name: "pattern.ff") }
        await #expect(throws: ImageError.self) {
            try await ImagePipeline(configuration: .init(memoryCache: nil)).encodedImage(
                for: request, as: OutputSettings(format: .farbfeld))
        }
    }

    @Test func aCutFileIsATypedErrorNamingIt() throws {
        let (_, farbfeld) = try Self.pattern()
        do {
            _ = try ImageSource(bytes: ImageBytes(Array(farbfeld.prefix(500))), name: "cut.ff", codecs: Self.codecs)
            Issue.record("a cut farbfeld file opened")
        } catch {
            #expect(error.code == .truncated && error.description.contains("cut.ff"))
        }
    }
}
