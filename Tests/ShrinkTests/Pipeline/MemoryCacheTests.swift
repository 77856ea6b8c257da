import Testing
import Shrink

@Suite struct MemoryCacheTests {
    @Test func evictsLeastRecentlyUsedFirst() {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 300, countLimit: 10, entryCostLimit: 100))
        cache.set(1, for: "a", cost: 100)
        cache.set(2, for: "b", cost: 100)
        cache.set(3, for: "c", cost: 100)
        #expect(cache.keysByRecency == ["a", "b", "c"])
        #expect(cache.value(for: "a") == 1) // a becomes the most recent
        #expect(cache.keysByRecency == ["b", "c", "a"])
        cache.set(4, for: "d", cost: 100) // over 300: b (least recent) goes
        #expect(cache.keysByRecency == ["c", "a", "d"])
        #expect(cache.value(for: "b") == nil)
        let s = cache.statistics
        #expect(s.count == 3 && s.cost == 300 && s.evictions == 1 && s.hits == 1 && s.misses == 1)
    }

    @Test func countLimitAndReplacement() {
        let cache = MemoryCache<Int, String>(configuration: .init(costLimit: 1000, countLimit: 2))
        cache.set("x", for: 1, cost: 10)
        cache.set("y", for: 2, cost: 20)
        cache.set("y2", for: 2, cost: 30) // replaces, cost updated exactly
        #expect(cache.statistics.cost == 40 && cache.statistics.count == 2)
        cache.set("z", for: 3, cost: 5)
        #expect(cache.keysByRecency == [2, 3])
        #expect(cache.value(for: 2) == "y2")
    }

    @Test func entryCapRefusesOneImageFromEvictingEverything() {
        let cache = MemoryCache<String, Int>(
            configuration: .init(costLimit: 1000, countLimit: 100, entryCostLimit: 250))
        for i in 0..<4 { cache.set(i, for: "k\(i)", cost: 200) }
        #expect(cache.set(99, for: "huge", cost: 251) == false)
        #expect(cache.statistics.count == 4 && cache.statistics.cost == 800 && cache.statistics.refused == 1)
        #expect(cache.value(for: "huge") == nil)
        // The default cap is a quarter of the cost limit.
        #expect(MemoryCache<String, Int>.Configuration(costLimit: 1000).entryCostLimit == 250)
    }

    @Test func trimAndRemoveAll() {
        let cache = MemoryCache<String, Int>(
            configuration: .init(costLimit: 1000, countLimit: 100, entryCostLimit: 1000))
        // Costs 100…500: k0…k3 fill exactly 1000; k4 (1500) evicts the least recent until it fits: k0, k1, k2.
        for i in 0..<5 { cache.set(i, for: "k\(i)", cost: 100 * (i + 1)) }
        #expect(cache.keysByRecency == ["k3", "k4"])
        #expect(cache.statistics.cost == 900 && cache.statistics.count == 2 && cache.statistics.evictions == 3)
        cache.trim(toCost: 500) // k3 (the least recent) goes: 500 left
        #expect(cache.keysByRecency == ["k4"])
        #expect(cache.statistics.cost == 500 && cache.statistics.count == 1 && cache.statistics.evictions == 4)
        #expect(cache.value(for: "k3") == nil && cache.value(for: "k4") == 4)
        cache.removeAll()
        #expect(cache.statistics.count == 0 && cache.statistics.cost == 0 && cache.keysByRecency.isEmpty)
    }

    @Test func costIsExactBufferBytes() async throws {
        // The pipeline charges the memory cache a decoded image's buffer bytes exactly: a 67x100 colour JPEG is
        // held as yuv420, 67·100 luma + 2·34·50 chroma = 10 100 bytes.
        let pipeline = ImagePipeline()
        let response = try await pipeline.image(
            for: ImageRequest(loader: MemoryLoader(bytes: try TestJPEG.make(width: 67, height: 100), id: "a")))
        #expect(response.image.size == PixelSize(width: 67, height: 100))
        #expect(response.image.pixels.format == .yuv420)
        #expect(response.telemetry.bufferBytes == 10_100)
        #expect(pipeline.memoryCache?.statistics.cost == 67 * 100 + 2 * 34 * 50)
        #expect(pipeline.memoryCache?.statistics.count == 1)
    }
}
