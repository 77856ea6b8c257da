import ShrinkCore

/// Which request key each result is cached under, once a header has told what the request makes: a request
/// spelled differently that plans the same output (a 300×200 box and a 300-pixel long side on a 3:2 photo)
/// finds the entry after reading its header, instead of decoding again. Entries are kept in the caches under
/// the key of the request that made them; this index only points there. Bounded: past ``capacity`` results the
/// oldest are forgotten (a forgotten one costs a decode for another spelling, never a wrong answer: the entry
/// it points at is looked up by its own key). Memory: three keys per entry, about 0.7 KiB.
package struct ResultIndex: Sendable {
    /// Results remembered.
    package static let capacity = 4096
    private var requests: [CacheKey: CacheKey] = [:]
    private var order: [CacheKey] = []
    private var start = 0

    package init() {}

    /// The request key the result `key` is cached under, or nil; setting records it (the newest request wins).
    package subscript(result: CacheKey) -> CacheKey? {
        get { requests[result] }
        set {
            guard let newValue else { return }
            if requests.updateValue(newValue, forKey: result) == nil { order.append(result) }
            while requests.count > Self.capacity, start < order.count {
                requests[order[start]] = nil
                start += 1
            }
            if start > Self.capacity { // compact the order now and then
                order.removeFirst(start)
                start = 0
            }
        }
    }
}
