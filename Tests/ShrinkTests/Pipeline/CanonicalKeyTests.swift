import Foundation
import Shrink
import ShrinkTestSupport
import Testing

/// Requests spelled differently that make the same result share one cache entry: a square box filled inside
/// is a long side before any header is read; a box and a long side with the same output share the entry once a
/// header has told; two spellings of one file are one file.
@Suite struct CanonicalKeyTests {
    /// A 300×200 photo: a 150×100 box and a 150-pixel long side both make 150×100.
    static let photo = try! TestImages.jpeg(TestImages.pattern(width: 300, height: 200))

    @Test func aSquareInsideBoxIsALongSideBeforeAnyHeader() throws {
        let loader = BytesLoader(bytes: ImageBytes(Self.photo), name: "p", identity: "p")
        let box = ImageRequest(loader: loader, target: .box(PixelSize(width: 150, height: 150), fit: .inside))
        let long = ImageRequest(loader: loader, target: .maxPixelSize(150))
        #expect(try box.cacheKey() == long.cacheKey())
        // A cover box and an oblong inside box are other results.
        let cover = ImageRequest(loader: loader, target: .box(PixelSize(width: 150, height: 150), fit: .cover))
        #expect(try cover.cacheKey() != long.cacheKey())
    }

    @Test func aBoxAndALongSideWithTheSameOutputShareTheMemoryCache() async throws {
        let pipeline = ImagePipeline()
        let loader = BytesLoader(bytes: ImageBytes(Self.photo), name: "p", identity: "p")
        let long = try await pipeline.image(for: ImageRequest(loader: loader, target: .maxPixelSize(150)))
        #expect(long.telemetry.origin == .decoded && long.image.size == PixelSize(width: 150, height: 100))
        let box = try await pipeline.image(
            for: ImageRequest(loader: loader, target: .box(PixelSize(width: 150, height: 100), fit: .inside)))
        #expect(box.telemetry.origin == .memoryCache)
        #expect(box.image.pixels.bytes == long.image.pixels.bytes)
        #expect(pipeline.memoryCache?.statistics.count == 1)
        #expect(pipeline.ledger.decodesStarted == 1)
        // Once the header has told, the box's own spelling finds the entry at once.
        let again = try await pipeline.image(
            for: ImageRequest(loader: loader, target: .box(PixelSize(width: 150, height: 100), fit: .inside)))
        #expect(again.telemetry.origin == .memoryCache && pipeline.ledger.decodesStarted == 1)
        // Another output is another entry.
        let other = try await pipeline.image(
            for: ImageRequest(loader: loader, target: .box(PixelSize(width: 150, height: 150), fit: .cover)))
        #expect(other.telemetry.origin == .decoded && other.image.size == PixelSize(width: 150, height: 150))
        #expect(pipeline.memoryCache?.statistics.count == 2)
    }

    @Test func twoSpellingsOfOneFileAreOneImage() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.photo).write(to: URL(fileURLWithPath: dir + "/a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.jpg", withDestinationPath: dir + "/a.jpg")
        let spellings = [dir + "/a.jpg", dir + "/./a.jpg", dir + "//sub/../a.jpg", dir + "/link.jpg"]
        let keys = try Set(spellings.map { try ImageRequest(path: $0, target: .maxPixelSize(64)).cacheKey() })
        #expect(keys.count == 1)
        let pipeline = ImagePipeline()
        for (i, path) in spellings.enumerated() {
            let r = try await pipeline.image(for: ImageRequest(path: path, target: .maxPixelSize(64)))
            #expect(r.telemetry.origin == (i == 0 ? .decoded : .memoryCache), "\(path)")
        }
        #expect(pipeline.ledger.decodesStarted == 1)
    }

    @Test func encodedResultsShareTheDiskCacheAcrossSpellings() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-keys-disk-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loader = BytesLoader(bytes: ImageBytes(Self.photo), name: "p", identity: "p")
        let webp = OutputSettings(format: .webp, quality: 70)
        // No memory cache of encoded results by default: the second spelling is served from the disk entry the
        // first stored, once its header has told what it makes.
        let pipeline = ImagePipeline(configuration: .init(diskCache: try DiskCache(directory: dir)))
        let first = try await pipeline.encodedImage(
            for: ImageRequest(loader: loader, target: .maxPixelSize(150)), as: webp)
        #expect(first.telemetry.origin == .decoded)
        let second = try await pipeline.encodedImage(
            for: ImageRequest(loader: loader, target: .box(PixelSize(width: 150, height: 100), fit: .inside)), as: webp)
        #expect(second.telemetry.origin == .diskCache)
        #expect(second.image.bytes == first.image.bytes)
        // The second spelling's answer is also written under its own key: the index that found it lives in this
        // process's memory and is read only after a load, while the disk tier is read before any.
        #expect(pipeline.diskCache?.statistics.count == 2)
        // A new pipeline (a new process, its index empty) finds each spelling under its own key before reading any
        // header: no decode for either.
        let fresh = ImagePipeline(configuration: .init(diskCache: try DiskCache(directory: dir)))
        for target in [ThumbnailTarget.maxPixelSize(150), .box(PixelSize(width: 150, height: 100), fit: .inside)] {
            let again = try await fresh.encodedImage(for: ImageRequest(loader: loader, target: target), as: webp)
            #expect(again.telemetry.origin == .diskCache && again.image.bytes == first.image.bytes)
        }
    }
}
