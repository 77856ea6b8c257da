import Synchronization

/// The filter weights of recent resamples, shared: a server or a batch resizing photos of one camera to one
/// size computes each axis's Lanczos table (a `sin` and a `cos` per output sample, a rotation per tap) once instead of per image.
///
/// Memory: at most ``byteLimit`` of weight tables (all entries are dropped when a new one would pass it);
/// a lookup is one lock and one dictionary probe.
enum FilterWeightsCache {
    /// Bytes of weight tables kept at most.
    static let byteLimit = 1 << 20

    private struct Key: Hashable {
        let inputCount: Int
        let from: UInt64
        let to: UInt64
        let outputCount: Int
        let kernel: ResampleKernel
    }

    private struct Entries {
        var tables: [Key: FilterWeights] = [:]
        var bytes = 0
    }

    private static let entries = Mutex(Entries())

    /// The weights `FilterWeights(inputCount:from:to:outputCount:)` makes, from the cache when they are there.
    static func weights(
        inputCount: Int, from: Double, to: Double, outputCount: Int, kernel: ResampleKernel = .lanczos3
    ) -> FilterWeights {
        let key = Key(
            inputCount: inputCount, from: from.bitPattern, to: to.bitPattern, outputCount: outputCount, kernel: kernel)
        if let hit = entries.withLock({ $0.tables[key] }) { return hit }
        let made = FilterWeights(inputCount: inputCount, from: from, to: to, outputCount: outputCount, kernel: kernel)
        let bytes = made.weights.count * 4 + made.start.count * 16
        guard bytes <= byteLimit / 4 else { return made }
        entries.withLock { e in
            if e.bytes + bytes > byteLimit { e = Entries() }
            if e.tables.updateValue(made, forKey: key) == nil { e.bytes += bytes }
        }
        return made
    }
}
