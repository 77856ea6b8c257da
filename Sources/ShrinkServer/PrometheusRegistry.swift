import CoreMetrics
import Synchronization

/// A swift-metrics backend that keeps every metric in memory and renders Prometheus' text format (0.0.4)
/// for `/metrics`: counters as `counter`, aggregating recorders and timers as `histogram` (timers in
/// seconds), non-aggregating recorders and meters as `gauge`. Labels are the metric's dimensions.
///
/// Cost: one small object per label set; an update takes one lock; rendering walks every series.
package final class PrometheusRegistry: MetricsFactory, Sendable {
    fileprivate struct Series: Sendable {
        var kind: Kind
        var value: Double = 0
        var buckets: [Int] = []
        var count = 0
        var sum = 0.0
    }
    fileprivate enum Kind: String, Sendable { case counter, gauge, histogram }

    /// Histogram bucket bounds for timers (seconds) and for recorded byte counts.
    static let secondsBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    static let valueBuckets: [Double] = [
        1_024, 16_384, 131_072, 1_048_576, 4_194_304, 16_777_216, 67_108_864, 268_435_456, 1_073_741_824,
    ]

    private struct Key: Hashable, Sendable { let name: String; let labels: String }
    private let series = Mutex<[Key: Series]>([:])
    private let help = Mutex<[String: String]>([:])

    package init() {}

    /// Sets the `# HELP` line of metric `name`.
    package func describe(_ name: String, _ text: String) { help.withLock { $0[name] = text } }

    fileprivate func update(_ name: String, _ labels: String, _ kind: Kind, _ body: (inout Series) -> Void) {
        series.withLock { s in
            let key = Key(name: name, labels: labels)
            var entry =
                s[key]
                ?? Series(
                    kind: kind,
                    buckets: kind == .histogram
                        ? [Int](
                            repeating: 0,
                            count: (name.hasSuffix("_seconds") ? Self.secondsBuckets : Self.valueBuckets).count) : [])
            body(&entry)
            s[key] = entry
        }
    }

    /// The text exposition of every metric, sorted by name then labels.
    package func render() -> String {
        let all = series.withLock { $0 }
        let helps = help.withLock { $0 }
        var out = ""
        var lastName = ""
        for (key, s) in all.sorted(by: { ($0.key.name, $0.key.labels) < ($1.key.name, $1.key.labels) }) {
            if key.name != lastName {
                if let h = helps[key.name] { out += "# HELP \(key.name) \(h)\n" }
                out += "# TYPE \(key.name) \(s.kind.rawValue)\n"
                lastName = key.name
            }
            let braces = key.labels.isEmpty ? "" : "{\(key.labels)}"
            switch s.kind {
            case .counter, .gauge:
                out += "\(key.name)\(braces) \(Self.format(s.value))\n"
            case .histogram:
                let bounds = key.name.hasSuffix("_seconds") ? Self.secondsBuckets : Self.valueBuckets
                var cumulative = 0
                for (i, b) in bounds.enumerated() {
                    cumulative += s.buckets[i]
                    out +=
                        "\(key.name)_bucket{\(key.labels)\(key.labels.isEmpty ? "" : ",")le=\"\(Self.format(b))\"} \(cumulative)\n"
                }
                out += "\(key.name)_bucket{\(key.labels)\(key.labels.isEmpty ? "" : ",")le=\"+Inf\"} \(s.count)\n"
                out += "\(key.name)_sum\(braces) \(Self.format(s.sum))\n"
                out += "\(key.name)_count\(braces) \(s.count)\n"
            }
        }
        return out
    }

    /// Sets a counter kept elsewhere (a pipeline's ledger) to its current `value`, at scrape time.
    /// The sum of `name`'s series whose labels contain every `label="value"` pair in `matching` (all of them
    /// when empty): a counter's or gauge's value, a histogram's count. What `/metrics` prints, read back.
    package func total(_ name: String, matching: [(String, String)] = []) -> Double {
        let wanted = matching.map { Self.labels([$0]) }
        return series.withLock { all in
            all.reduce(0) { sum, item in
                guard item.key.name == name,
                    wanted.allSatisfy({ item.key.labels.split(separator: ",").contains(Substring($0)) })
                else { return sum }
                return sum + (item.value.kind == .histogram ? Double(item.value.count) : item.value.value)
            }
        }
    }

    package func mirrorCounter(_ name: String, _ value: Int) {
        update(name, "", .counter) { $0.value = Double(value) }
    }

    static func labels(_ dimensions: [(String, String)]) -> String {
        dimensions.map { "\(sanitize($0.0))=\"\(escape($0.1))\"" }.joined(separator: ",")
    }

    static func sanitize(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    fileprivate static func observe(_ s: inout Series, _ v: Double, bounds: [Double]) {
        s.count += 1
        s.sum += v
        if let i = bounds.firstIndex(where: { v <= $0 }) { s.buckets[i] += 1 }
    }

    // MARK: - MetricsFactory

    package func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler {
        Handler(registry: self, name: Self.sanitize(label), labels: Self.labels(dimensions), kind: .counter)
    }

    package func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> FloatingPointCounterHandler
    {
        Handler(registry: self, name: Self.sanitize(label), labels: Self.labels(dimensions), kind: .counter)
    }

    package func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler {
        Handler(registry: self, name: Self.sanitize(label), labels: Self.labels(dimensions), kind: .gauge)
    }

    package func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> RecorderHandler {
        Handler(
            registry: self, name: Self.sanitize(label), labels: Self.labels(dimensions),
            kind: aggregate ? .histogram : .gauge)
    }

    package func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler {
        Handler(registry: self, name: Self.sanitize(label), labels: Self.labels(dimensions), kind: .histogram)
    }

    package func destroyCounter(_ handler: CounterHandler) {}
    package func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler) {}
    package func destroyMeter(_ handler: MeterHandler) {}
    package func destroyRecorder(_ handler: RecorderHandler) {}
    package func destroyTimer(_ handler: TimerHandler) {}

    /// One series' handle: every swift-metrics handler protocol, writing through the registry's lock.
    private final class Handler: CounterHandler, FloatingPointCounterHandler, MeterHandler, RecorderHandler,
        TimerHandler, Sendable
    {
        let registry: PrometheusRegistry
        let name: String
        let labels: String
        let kind: Kind

        init(registry: PrometheusRegistry, name: String, labels: String, kind: Kind) {
            self.registry = registry
            self.name = name
            self.labels = labels
            self.kind = kind
            registry.update(name, labels, kind) { _ in }
        }

        func increment(by amount: Int64) { registry.update(name, labels, kind) { $0.value += Double(amount) } }
        func increment(by amount: Double) { registry.update(name, labels, kind) { $0.value += amount } }
        func decrement(by amount: Double) { registry.update(name, labels, kind) { $0.value -= amount } }
        func reset() { registry.update(name, labels, kind) { $0.value = 0 } }
        func set(_ value: Int64) { set(Double(value)) }
        func set(_ value: Double) { registry.update(name, labels, kind) { $0.value = value } }
        func record(_ value: Int64) { record(Double(value)) }
        func record(_ value: Double) {
            registry.update(name, labels, kind) { s in
                if kind == .histogram {
                    PrometheusRegistry.observe(&s, value, bounds: PrometheusRegistry.valueBuckets)
                } else {
                    s.value = value
                }
            }
        }
        func recordNanoseconds(_ duration: Int64) {
            registry.update(name, labels, kind) {
                PrometheusRegistry.observe(&$0, Double(duration) / 1e9, bounds: PrometheusRegistry.secondsBuckets)
            }
        }
    }
}
