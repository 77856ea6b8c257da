import Testing
import Shrink

@Suite struct MemoryCacheTests {
    @Test func evictsLeastRecentlyUsedFirst() {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 300, countLimit: 10, entryCostLimit: 100))
        cache.set(1, for: "a", cost: 100)
        cache.set(2, for: "b", cost: 100)
        cache.set(3, for: "c", cost: 100)
        #expect(cache.keysByRecency == ["a", "b", "c"])
        #expect(cache.value(for: "a") == 1)              // a becomes the most recent
        #expect(cache.keysByRecency == ["b", "c", "a"])
        cache.set(4, for: "d", cost: 100)                // over 300: b (least recent) goes
        #expect(cache.keysByRecency == ["c", "a", "d"])
        #expect(cache.value(for: "b") == nil)
        let s = cache.statistics
        #expect(s.count == 3 && s.cost == 300 && s.evictions == 1 && s.hits == 1 && s.misses == 1)
    }

    @Test func countLimitAndReplacement() {
        let cache = MemoryCache<Int, String>(configuration: .init(costLimit: 1000, countLimit: 2))
        cache.set("x", for: 1, cost: 10)
        cache.set("y", for: 2, cost: 20)
        cache.set("y2", for: 2, cost: 30)                // replaces, cost updated exactly
        #expect(cache.statistics.cost == 40 && cache.statistics.count == 2)
        cache.set("z", for: 3, cost: 5)
        #expect(cache.keysByRecency == [2, 3])
        #expect(cache.value(for: 2) == "y2")
    }

    @Test func entryCapRefusesOneImageFromEvictingEverything() {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 1000, countLimit: 100, entryCostLimit: 250))
        for i in 0..<4 { cache.set(i, for: "k\(i)", cost: 200) }
        #expect(cache.set(99, for: "huge", cost: 251) == false)
        #expect(cache.statistics.count == 4 && cache.statistics.cost == 800 && cache.statistics.refused == 1)
        #expect(cache.value(for: "huge") == nil)
        // The default cap is a quarter of the cost limit.
        #expect(MemoryCache<String, Int>.Configuration(costLimit: 1000).entryCostLimit == 250)
    }

    @Test func trimAndRemoveAll() {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 1000, countLimit: 100, entryCostLimit: 1000))
        for i in 0..<5 { cache.set(i, for: "k\(i)", cost: 100 * (i + 1)) }   // 100…500 = 1500 > 1000: k0..k2 evicted? no: trims oldest
        #expect(cache.statistics.cost <= 1000)
        let before = cache.keysByRecency
        cache.trim(toCost: 500)
        #expect(cache.statistics.cost <= 500)
        #expect(cache.keysByRecency == Array(before.suffix(cache.statistics.count)))
        cache.removeAll()
        #expect(cache.statistics.count == 0 && cache.statistics.cost == 0 && cache.keysByRecency.isEmpty)
    }

    @Test func costIsExactBufferBytes() throws {
        // The pipeline charges the memory cache a decoded image's buffer bytes exactly.
        let pipelineCache = MemoryCache<String, DecodedImage>()
        let pixels = PixelBuffer(format: .yuv420, size: PixelSize(width: 67, height: 100), bytes: [UInt8](repeating: 0, count: 10100))
        let plan = try ImageSource(bytes: try TestJPEG.make(width: 67, height: 100)).plan(.original)
        pipelineCache.set(DecodedImage(pixels: pixels, plan: plan), for: "a", cost: pixels.byteCount)
        #expect(pipelineCache.statistics.cost == 67 * 100 + 2 * 34 * 50)
    }
}
