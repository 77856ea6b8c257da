import Synchronization

/// A cost-based LRU cache in memory: a doubly linked list in recency order plus a dictionary, so lookups,
/// inserts and evictions are O(1). The caller says what each entry costs (for images: exact buffer bytes);
/// the cache keeps the total cost within ``Configuration/costLimit`` and the count within
/// ``Configuration/countLimit`` by evicting the least recently used entries, and refuses an entry costing more
/// than ``Configuration/entryCostLimit`` so one image can never evict everything.
///
/// Thread-safe (one mutex). Memory: the values plus ~100 bytes of bookkeeping per entry.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Limits of a cache.
    public struct Configuration: Sendable {
        /// The most total cost kept. `64 MiB` by default.
        public var costLimit: Int
        /// The most entries kept. `1000` by default.
        public var countLimit: Int
        /// The most one entry may cost; dearer entries are not stored. `costLimit / 4` by default.
        public var entryCostLimit: Int

        /// Limits with the defaults above, or the values given.
        public init(costLimit: Int = 64 << 20, countLimit: Int = 1000, entryCostLimit: Int? = nil) {
            self.costLimit = max(0, costLimit)
            self.countLimit = max(0, countLimit)
            self.entryCostLimit = max(0, entryCostLimit ?? costLimit / 4)
        }
    }

    /// Counters since the cache was made (or since ``resetStatistics()``) and the current contents.
    public struct Statistics: Sendable, Equatable {
        /// Lookups that found an entry.
        public var hits = 0
        /// Lookups that found nothing.
        public var misses = 0
        /// Entries evicted to stay within the limits (not counting explicit removals).
        public var evictions = 0
        /// Entries refused because they cost more than the entry cap.
        public var refused = 0
        /// Entries held now.
        public var count = 0
        /// Their total cost now.
        public var cost = 0
    }

    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var newer: Node?
        unowned(unsafe) var older: Node?
        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    private struct State: ~Copyable {
        var configuration: Configuration
        var nodes: [Key: Node] = [:]
        var newest: Node? // the list runs oldest → newest through `newer`
        var oldest: Node?
        var statistics = Statistics()

        mutating func unlink(_ node: Node) {
            if let newer = node.newer { newer.older = node.older } else { newest = node.older }
            if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
            node.newer = nil
            node.older = nil
        }

        mutating func append(_ node: Node) {
            node.older = newest
            newest?.newer = node
            newest = node
            if oldest == nil { oldest = node }
        }

        mutating func remove(_ node: Node) {
            unlink(node)
            nodes[node.key] = nil
            statistics.count -= 1
            statistics.cost -= node.cost
        }

        mutating func trim(toCost cost: Int, count: Int) -> Int {
            var evicted = 0
            while statistics.cost > cost || statistics.count > count, let node = oldest {
                remove(node)
                evicted += 1
            }
            return evicted
        }
    }

    private let state: Mutex<State>

    /// An empty cache with `configuration`'s limits.
    public init(configuration: Configuration = Configuration()) {
        state = Mutex(State(configuration: configuration))
    }

    /// The limits in force.
    public var configuration: Configuration { state.withLock { $0.configuration } }

    /// The value for `key`, marking it most recently used; nil (a miss) when absent.
    public func value(for key: Key) -> Value? {
        state.withLock { s -> Value? in
            guard let node = s.nodes[key] else {
                s.statistics.misses += 1
                return nil
            }
            s.statistics.hits += 1
            s.unlink(node)
            s.append(node)
            return node.value
        }
    }

    /// True when `key` is held (neither counted as a hit or miss nor changing the order).
    public func contains(_ key: Key) -> Bool { state.withLock { $0.nodes[key] != nil } }

    /// Stores `value` at `cost` as the most recently used entry, replacing any value for `key`, then evicts
    /// the least recently used entries until the limits hold. Returns false (and stores nothing) when `cost`
    /// exceeds the entry cap.
    @discardableResult
    public func set(_ value: Value, for key: Key, cost: Int) -> Bool {
        state.withLock { s -> Bool in
            if let old = s.nodes[key] { s.remove(old) }
            guard cost <= s.configuration.entryCostLimit, cost <= s.configuration.costLimit,
                s.configuration.countLimit > 0
            else {
                s.statistics.refused += 1
                return false
            }
            let node = Node(key: key, value: value, cost: max(0, cost))
            s.nodes[key] = node
            s.append(node)
            s.statistics.count += 1
            s.statistics.cost += node.cost
            s.statistics.evictions += s.trim(toCost: s.configuration.costLimit, count: s.configuration.countLimit)
            return true
        }
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    public func removeValue(for key: Key) -> Value? {
        state.withLock { s -> Value? in
            guard let node = s.nodes[key] else { return nil }
            s.remove(node)
            return node.value
        }
    }

    /// Evicts least recently used entries until the total cost is at most `cost`.
    public func trim(toCost cost: Int) {
        state.withLock { s in s.statistics.evictions += s.trim(toCost: max(0, cost), count: s.configuration.countLimit)
        }
    }

    /// Evicts least recently used entries until at most `count` remain.
    public func trim(toCount count: Int) {
        state.withLock { s in s.statistics.evictions += s.trim(toCost: s.configuration.costLimit, count: max(0, count))
        }
    }

    /// Empties the cache.
    public func removeAll() {
        state.withLock { s in
            s.nodes.removeAll()
            // Break the `newer` chain iteratively so a long list is not freed recursively.
            var node = s.oldest
            while let n = node { node = n.newer; n.newer = nil }
            s.newest = nil
            s.oldest = nil
            s.statistics.count = 0
            s.statistics.cost = 0
        }
    }

    /// Keys from least to most recently used.
    public var keysByRecency: [Key] {
        state.withLock { s -> [Key] in
            var keys: [Key] = []
            var node = s.oldest
            while let n = node { keys.append(n.key); node = n.newer }
            return keys
        }
    }

    /// Counters and current contents.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Zeroes hits, misses, evictions and refusals (contents stay).
    public func resetStatistics() {
        state.withLock { s in
            s.statistics.hits = 0
            s.statistics.misses = 0
            s.statistics.evictions = 0
            s.statistics.refused = 0
        }
    }

    deinit { removeAll() }
}
