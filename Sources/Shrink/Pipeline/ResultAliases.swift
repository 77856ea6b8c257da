import ShrinkCore

/// Which result key each request key leads to, once a header has told: requests spelled differently that
/// plan the same output (a 300×200 box and a 300-pixel long side on a 3:2 photo) share one cache entry.
/// Bounded: past ``capacity`` entries the oldest are forgotten (a forgotten alias costs one header read).
/// Memory: two keys per entry, about 0.5 KiB.
package struct ResultAliases: Sendable {
    /// Entries kept.
    package static let capacity = 4096
    private var targets: [CacheKey: CacheKey] = [:]
    private var order: [CacheKey] = []
    private var start = 0

    package init() {}

    /// The result key recorded for `key`, or nil.
    package subscript(key: CacheKey) -> CacheKey? {
        get { targets[key] }
        set {
            guard let newValue else { targets[key] = nil; return }
            if targets.updateValue(newValue, forKey: key) == nil { order.append(key) }
            while targets.count > Self.capacity, start < order.count {
                targets[order[start]] = nil
                start += 1
            }
            if start > Self.capacity {       // compact the order now and then
                order.removeFirst(start)
                start = 0
            }
        }
    }

    private static let diskPrefix = Array("shrink-alias v1\n".utf8)

    /// A disk cache record that points at the entry stored under `key`.
    package static func diskRecord(pointingTo key: String) -> [UInt8] { diskPrefix + Array(key.utf8) }

    /// The key a disk cache record points at, or nil when `data` is an image, not an alias record.
    package static func diskTarget(of data: [UInt8]) -> String? {
        guard data.starts(with: diskPrefix) else { return nil }
        return String(decoding: data[diskPrefix.count...], as: UTF8.self)
    }
}
