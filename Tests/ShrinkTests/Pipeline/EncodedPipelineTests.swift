import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// Requests for bytes: encoded once per coalesced job inside the charge, cached as bytes, served from the
/// disk cache as stored.
@Suite struct EncodedPipelineTests {
    static let jpeg = try! TestJPEG.make(width: 320, height: 240)

    static func request(_ id: String, bytes: [UInt8] = jpeg, gate: Gate? = nil) -> ImageRequest {
        ImageRequest(loader: MemoryLoader(bytes: bytes, id: id, gate: gate), target: .maxPixelSize(80))
    }

    @Test func bytesOutAreAFileOfTheRequestedFormat() async throws {
        let pipeline = ImagePipeline()
        let formats = [
            (ImageFormat.jpeg, "image/jpeg"), (.png, "image/png"), (.webp, "image/webp"), (.gif, "image/gif"),
            (.avif, "image/avif"),
        ]
        for (format, mime) in formats {
            let r = try await pipeline.encodedImage(
                for: Self.request("a"), as: OutputSettings(format: format, quality: 70))
            #expect(r.image.format == format && r.image.mimeType == mime)
            #expect(r.image.size == PixelSize(width: 80, height: 60))
            let decoded = try ImageSource(bytes: ImageBytes(r.image.bytes), name: "out")
            #expect(decoded.info.format == format && decoded.info.displayedSize == PixelSize(width: 80, height: 60))
            #expect(r.image.validator.count == 32)
            #expect(r.telemetry.encodedBytes == r.image.bytes.count && r.telemetry.origin == .decoded)
        }
        #expect(pipeline.ledger.encodes == formats.count)
        await #expect(throws: ImageError.self) {
            try await pipeline.encodedImage(for: Self.request("a"), as: OutputSettings(format: .heif))
        }
    }

    @Test func identicalRequestsForBytesEncodeOnce() async throws {
        let log = EventLog()
        let pipeline = ImagePipeline(configuration: .server(budget: 64 << 20))
        let gate = Gate()
        let output = OutputSettings(format: .jpeg)
        let tasks = (0..<50).map { _ in pipeline.encodedImageTask(with: Self.request("same", gate: gate), as: output) }
        gate.open()
        var validators = Set<String>()
        for t in tasks { validators.insert(try await t.encodedResponse.image.validator) }
        #expect(validators.count == 1)
        #expect(pipeline.ledger.decodesStarted == 1 && pipeline.ledger.encodes == 1)
        // Then a memory hit on the encoded cache, charged its bytes inside the budget.
        let again = try await pipeline.encodedImage(for: Self.request("same"), as: output)
        #expect(again.telemetry.origin == .memoryCache)
        #expect(
            pipeline.ledger.encodedCachedImages == 1 && pipeline.ledger.encodedCachedBytes == again.image.bytes.count)
        #expect(pipeline.ledger.totalBytes == again.image.bytes.count)
        _ = log
    }

    @Test func chargesIncludeTheEncoderAndInMemorySources() async throws {
        let log = EventLog()
        let pipeline = ImagePipeline(configuration: .init(observer: { log.append($0) }))
        _ = try await pipeline.image(for: Self.request("pixels"))
        _ = try await pipeline.encodedImage(for: Self.request("bytes"), as: OutputSettings(format: .jpeg))
        let charges = log.all.compactMap { e -> Int? in if case .decodeStarted(_, let c, _) = e { c } else { nil } }
        #expect(charges.count == 2)
        // The same decode (a JPEG is decoded to the same YUV planes), plus the JPEG encoder's prediction for the
        // 80x60 result (4 B/px copy + 1 B/px output + 1 MiB); the in-memory source both times.
        #expect(charges[1] - charges[0] == 80 * 60 * 5 + (1 << 20))
        #expect(charges[0] >= Self.jpeg.count)
        // Optimised Huffman tables (and progressive JPEGs) make libjpeg buffer every coefficient: 3 B/px at 4:2:0.
        _ = try await pipeline.encodedImage(
            for: Self.request("optimised"), as: OutputSettings(format: .jpeg, optimizeCoding: true))
        let optimised = log.all.compactMap { e -> Int? in if case .decodeStarted(_, let c, _) = e { c } else { nil } }
        #expect(optimised.count == 3 && optimised[2] - optimised[1] == 80 * 60 * 3)
    }

    @Test func optimisedHuffmanTablesMakeASmallerFileOfTheSamePixels() async throws {
        let pipeline = ImagePipeline()
        let plain = try await pipeline.encodedImage(for: Self.request("h"), as: OutputSettings(format: .jpeg))
        let optimised = try await pipeline.encodedImage(
            for: Self.request("h"), as: OutputSettings(format: .jpeg, optimizeCoding: true))
        #expect(optimised.image.bytes.count < plain.image.bytes.count)
        #expect(optimised.image.validator != plain.image.validator)
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        #expect(
            try ImageSource(bytes: plain.image.bytes).image(options: rgb).pixels.bytes
                == ImageSource(bytes: optimised.image.bytes).image(options: rgb).pixels.bytes)
    }

    @Test func diskHitsAreTheStoredBytesWithoutLoadingTheSource() async throws {
        let dir = NSTemporaryDirectory() + "shrink-encoded-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = OutputSettings(format: .webp, quality: 60)
        let first = ImagePipeline(configuration: .init(memoryCache: nil, diskCache: try DiskCache(directory: dir)))
        let made = try await first.encodedImage(for: Self.request("disk"), as: output)
        let second = ImagePipeline(configuration: .init(memoryCache: nil, diskCache: try DiskCache(directory: dir)))
        let loader = MemoryLoader(bytes: Self.jpeg, id: "disk")
        let hit = try await second.encodedImage(
            for: ImageRequest(loader: loader, target: .maxPixelSize(80)), as: output)
        #expect(hit.telemetry.origin == .diskCache)
        #expect(hit.image.bytes == made.image.bytes && hit.image.validator == made.image.validator)
        #expect(hit.image.size == PixelSize(width: 80, height: 60))
        #expect(loader.loads.count == 0 && second.ledger.decodesStarted == 0)
    }

    @Test func bytesLoaderWrapsWithoutCopyingAndNamesItsContent() async throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.jpeg.count + 100, alignment: 16)
        buffer.copyBytes(from: Self.jpeg)
        let bytes = ImageBytes(adopting: buffer, count: Self.jpeg.count, name: "upload")
        #expect(bytes.bytes.baseAddress == UnsafeRawPointer(buffer.baseAddress) && bytes.count == Self.jpeg.count)
        let loader = BytesLoader(bytes: bytes, name: "upload")
        let same = BytesLoader(bytes: ImageBytes(Self.jpeg), name: "copy")
        #expect(try loader.identity() == same.identity())
        #expect(
            try loader.identity() != BytesLoader(bytes: ImageBytes(Array(Self.jpeg.dropLast())), name: "x").identity())
        let r = try await ImagePipeline().image(for: ImageRequest(loader: loader, target: .maxPixelSize(40)))
        #expect(r.image.size == PixelSize(width: 40, height: 30))
    }

    @Test func cacheKeysAreTypedFieldsWithoutTypeNames() throws {
        let a = try Self.request("k").cacheKey()
        #expect(a.string == "v=3|src=k|t=max:80|r=all|up=0|g=-|rot=1|m=quality|strict=0|thumb=auto|px=memory|c=srgb")
        #expect(!a.string.contains("Shrink") && !a.string.contains("ThumbnailTarget"))
        #expect(a.digest.count == 64)
        var cover = Self.request("k")
        cover.target = .box(PixelSize(width: 10, height: 10), fit: .cover)
        cover.options.gravity = .north
        #expect(try cover.cacheKey().string.contains("|t=box:10x10:cover|"))
        #expect(try cover.cacheKey().string.contains("|g=0.5:0|"))
        // Gravity only matters to cover windows: any other target ignores it in the key.
        var inside = Self.request("k")
        inside.options.gravity = .south
        #expect(try inside.cacheKey() == a)
        var cropped = Self.request("k|x=y")
        cropped.crop = ImageRequest.Crop(width: 0.5, height: 100, gravity: .east)
        #expect(try cropped.cacheKey().string.contains("src=k%7Cx%3Dy|"))
        #expect(try cropped.cacheKey().string.contains("|r=crop:0.5:100.0:1:0.5|"))
        let pipeline = ImagePipeline()
        #expect(
            try pipeline.cacheKey(for: Self.request("k"), output: OutputSettings(format: .png)).string.hasSuffix(
                "|f=png|q=80|prog=0|opt=0|bg=ffffff|icc=1"))
        #expect(
            try pipeline.cacheKey(for: Self.request("k"), output: OutputSettings(format: .jpeg, optimizeCoding: true))
                .string.hasSuffix("|f=jpeg|q=80|prog=0|opt=1|bg=ffffff|icc=1"))
    }

    @Test func rotationCropsAndGravityShapeTheResult() async throws {
        let pipeline = ImagePipeline()
        var rotated = ImageRequest(loader: MemoryLoader(bytes: Self.jpeg, id: "r"), target: .maxPixelSize(80))
        rotated.options.rotation = .right
        #expect(try await pipeline.image(for: rotated).image.size == PixelSize(width: 60, height: 80))
        var cropped = ImageRequest(
            loader: MemoryLoader(bytes: Self.jpeg, id: "c"),
            crop: ImageRequest.Crop(width: 0.5, height: 120, gravity: .southEast))
        let crop = try await pipeline.image(for: cropped).image
        #expect(crop.size == PixelSize(width: 160, height: 120))
        #expect(crop.plan.storedRegion == FractionalRect(x: 160, y: 120, width: 160, height: 120))
        cropped.region = PixelRect(x: 0, y: 0, width: 10, height: 10)
        await #expect(throws: ImageError.self) { try await pipeline.image(for: cropped) }
    }
}
