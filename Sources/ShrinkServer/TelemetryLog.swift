import Shrink
import Synchronization

/// The telemetry of recent image responses by ETag, for the gallery's inspector (`/_/telemetry/ETAG`): what
/// the decode that made the bytes cost (kept when later responses come from a cache) and where the latest
/// response came from. Holds at most ``capacity`` entries, a few hundred bytes each, dropping the oldest.
package final class TelemetryLog: Sendable {
    /// One ETag's record.
    package struct Entry: Sendable {
        /// The response that decoded (or, until one did, the first one seen).
        package var made: ImageTelemetry
        /// Where the latest response came from: `decoded`, `coalesced`, `memoryCache`, `diskCache`, `http304`.
        package var latestOrigin: String
        package var responses: Int
        /// Of those, 304s answered from `If-None-Match`.
        package var notModified = 0
    }

    package let capacity: Int
    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var head = 0
    }
    private let state = Mutex(State())

    package init(capacity: Int = 2048) { self.capacity = max(1, capacity) }

    /// Records a response with `etag` (quotes included or not) and `telemetry`.
    package func record(etag: String, _ telemetry: ImageTelemetry) {
        let key = Self.bare(etag)
        let origin = telemetry.coalesced ? "coalesced" : telemetry.origin.rawValue
        state.withLock { s in
            if var e = s.entries[key] {
                if telemetry.origin == .decoded && !telemetry.coalesced { e.made = telemetry }
                e.latestOrigin = origin
                e.responses += 1
                s.entries[key] = e
                return
            }
            if s.order.count < capacity {
                s.order.append(key)
            } else {
                s.entries[s.order[s.head]] = nil
                s.order[s.head] = key
                s.head = (s.head + 1) % capacity
            }
            s.entries[key] = Entry(made: telemetry, latestOrigin: origin, responses: 1)
        }
    }

    /// Records a 304 for `etag` (no work was done): counted on its record, when one is kept.
    package func recordNotModified(etag: String) {
        state.withLock { s in
            guard var e = s.entries[Self.bare(etag)] else { return }
            e.latestOrigin = "http304"
            e.responses += 1
            e.notModified += 1
            s.entries[Self.bare(etag)] = e
        }
    }

    /// The record of `etag`, if it is still kept.
    package func entry(etag: String) -> Entry? { state.withLock { $0.entries[Self.bare(etag)] } }

    private static func bare(_ etag: String) -> String {
        var t = Substring(etag)
        if t.hasPrefix("W/") { t = t.dropFirst(2) }
        return String(t.trimmingPrefix("\"").prefix { $0 != "\"" })
    }
}
