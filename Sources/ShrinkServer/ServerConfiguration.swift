import Foundation
import Shrink
import ShrinkServerURL

/// Everything `shrink serve` is configured with: flags override the environment, the environment overrides
/// the defaults. The names are fixed (deployments and tests rely on them): `--bind`/`SHRINK_BIND`,
/// `--root`/`SHRINK_LOCAL_ROOT`, `--budget`/`SHRINK_BUDGET`, `--cache-dir`/`SHRINK_CACHE_DIR`,
/// `SHRINK_KEY`/`SHRINK_SALT` (hex, comma-separated pairs, as imgproxy's `IMGPROXY_KEY`/`IMGPROXY_SALT`),
/// `SHRINK_ALLOWED_SOURCES` (comma-separated URL prefixes for http(s) sources); imgproxy's names stand in for
/// Shrink's unset ones (``imgproxyNames``).
package struct ServerConfiguration: Sendable {
    /// Address and port to listen on. `127.0.0.1:8080` by default.
    package var host = "127.0.0.1"
    package var port = 8080
    /// Root of `local:///` sources; nil refuses them.
    package var localRoot: String?
    /// Bytes the pipeline may hold: decodes, their encoders, in-memory sources and the cache of encoded
    /// results. A quarter of the memory limit, at most 1 GiB, by default.
    package var budget = min(SystemResources.memoryLimit / 4, 1 << 30)
    /// Bytes of encoded results kept in memory, inside the budget (evicted first when decodes need room);
    /// 0 turns the cache off. Half the budget by default.
    package var resultCacheBytes: Int?
    /// Decodes at once. The cores by default.
    package var concurrency = SystemResources.cores
    /// A disk cache of encoded results; nil for none.
    package var cacheDirectory: String?
    /// Its size limit. 1 GiB by default.
    package var cacheBytes = 1 << 30
    /// Signing keys; none (any signature accepted: `insecure`, `unsafe`, `_`) by default.
    package var keys = SigningKeys.none
    /// URL prefixes http(s) sources must start with, `*` standing for any run of characters but `/`
    /// (``allows(source:)``); empty refuses every remote source.
    package var allowedSources: [String] = []
    /// Hosts (`host:port`) that may resolve to private or loopback addresses (an origin on this machine).
    /// Empty by default: such addresses are refused.
    package var allowedPrivateHosts: [String] = []
    /// Requests waiting for the pipeline before new ones get 503. `256` by default.
    package var queueLimit = 256
    /// Longest wait for admission before a 503. 10 s by default.
    package var maxQueueWait: Duration = .seconds(10)
    /// Seconds sent in `Retry-After` with a 503. `2` by default.
    package var retryAfter = 2
    /// On SIGTERM: how long `/ready` says 503 while still serving, then how long in-flight requests may take.
    package var drainDelay: Duration = .zero
    package var drainDeadline: Duration = .seconds(25)
    /// Largest source download. 32 MiB by default.
    package var maxSourceBytes = 32 << 20
    /// Limits checked from every header (pixels, frames…).
    package var limits = ImageLimits()
    /// Output quality when the URL names none. `80` by default.
    package var quality = 80
    /// The formats offered to clients whose `Accept` names them, when the URL names no format (then `Vary: Accept`):
    /// AVIF (`SHRINK_AUTO_AVIF`), WebP (`SHRINK_AUTO_WEBP`), or both; each also under imgproxy's name
    /// (`IMGPROXY_AUTO_AVIF`, `IMGPROXY_AUTO_WEBP`, and the older `IMGPROXY_ENABLE_AVIF_DETECTION`,
    /// `IMGPROXY_ENABLE_WEBP_DETECTION`). Off by default.
    package var negotiation = FormatNegotiation()
    /// Presets by name (`pr:NAME`), each an option string; `default` applies to every URL.
    package var presets: [String: String] = [:]
    /// Deadlines of remote fetches: connect, first byte, whole body.
    package var connectTimeout: Duration = .seconds(3)
    package var firstByteTimeout: Duration = .seconds(10)
    package var downloadTimeout: Duration = .seconds(30)
    /// A connection with no traffic for this long closes (an idle keep-alive connection, a request body that
    /// stalled), never while its response is being made. 75 s by default (longer than nginx's 60 s upstream
    /// keepalive, so a proxy never writes into a connection being closed).
    package var idleTimeout: Duration = .seconds(75)
    /// Serve the gallery pages under `/_/` (`--gallery`). Off by default.
    package var gallery = false
    /// The gallery's token (`SHRINK_GALLERY_TOKEN`): with it every gallery client needs it; without it, only
    /// loopback clients are served.
    package var galleryToken: String?
    /// The imgproxy variables ``init(environment:)`` read, each standing in for Shrink's unset name (the README's
    /// Server section has the table): `IMGPROXY_BIND`, `IMGPROXY_KEY`/`IMGPROXY_KEYS`, `IMGPROXY_SALT`/`IMGPROXY_SALTS`,
    /// `IMGPROXY_SIGNATURE_SIZE`, `IMGPROXY_ALLOWED_SOURCES`, `IMGPROXY_QUALITY`, `IMGPROXY_MAX_SRC_FILE_SIZE`,
    /// `IMGPROXY_MAX_SRC_RESOLUTION`, `IMGPROXY_MAX_ANIMATION_FRAMES`, `IMGPROXY_AUTO_AVIF`, `IMGPROXY_AUTO_WEBP` (and
    /// the older `IMGPROXY_ENABLE_*_DETECTION`), `IMGPROXY_PRESETS`.
    package var imgproxyNames: [String] = []

    package init() {}

    /// The defaults overridden by `environment`: each setting under Shrink's name (`SHRINK_*`) or, when that is not
    /// set, under imgproxy's (``imgproxyNames``), so an imgproxy deployment's environment carries over. Fails naming
    /// the variable that cannot be used.
    package init(environment: [String: String]) throws(ConfigurationError) {
        self.init()
        var read: [String] = []
        /// The value of the first of `names` that is set (Shrink's first); imgproxy's names are remembered.
        func value(_ names: String...) -> (name: String, value: String)? {
            guard let name = names.first(where: { environment[$0] != nil }), let v = environment[name] else {
                return nil
            }
            if name.hasPrefix("IMGPROXY_") { read.append(name) }
            return (name, v)
        }
        if let (name, bind) = value("SHRINK_BIND", "IMGPROXY_BIND") {
            // imgproxy's `:8080` listens on every interface.
            try setBind(bind.hasPrefix(":") ? "0.0.0.0" + bind : bind, name: name)
        }
        if let root = environment["SHRINK_LOCAL_ROOT"], !root.isEmpty { localRoot = root }
        if let b = environment["SHRINK_BUDGET"] { budget = try Self.bytes(b, name: "SHRINK_BUDGET") }
        if let b = environment["SHRINK_RESULT_CACHE"] {
            resultCacheBytes = b == "0" ? 0 : try Self.bytes(b, name: "SHRINK_RESULT_CACHE")
        }
        if let dir = environment["SHRINK_CACHE_DIR"], !dir.isEmpty { cacheDirectory = dir }
        let key = value("SHRINK_KEY", "IMGPROXY_KEYS", "IMGPROXY_KEY")
        let salt = value("SHRINK_SALT", "IMGPROXY_SALTS", "IMGPROXY_SALT")
        let size = value("SHRINK_SIGNATURE_SIZE", "IMGPROXY_SIGNATURE_SIZE")
        if key != nil || salt != nil {
            keys = try SigningKeys(
                hexKeys: key?.value ?? "", hexSalts: salt?.value ?? "", signatureBytes: Int(size?.value ?? "") ?? 32)
        }
        if let (_, s) = value("SHRINK_ALLOWED_SOURCES", "IMGPROXY_ALLOWED_SOURCES") {
            allowedSources = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        if let s = environment["SHRINK_ALLOWED_PRIVATE_HOSTS"] {
            allowedPrivateHosts = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
        }
        if let (name, q) = value("SHRINK_QUALITY", "IMGPROXY_QUALITY") {
            guard let v = Int(q), (1...100).contains(v) else {
                throw ConfigurationError("\(name) must be 1–100, not \(q)")
            }
            quality = v
        }
        if let (name, b) = value("SHRINK_MAX_SOURCE_SIZE", "IMGPROXY_MAX_SRC_FILE_SIZE"), b != "0" {
            // imgproxy's 0 (no limit) keeps Shrink's bound: a download is held in memory.
            maxSourceBytes = try Self.bytes(b, name: name)
        }
        if let (name, mp) = value("SHRINK_MAX_SOURCE_RESOLUTION", "IMGPROXY_MAX_SRC_RESOLUTION") {
            guard let v = Double(mp), v > 0, v <= Double(Int.max >> 21) else {
                throw ConfigurationError("\(name) must be a number of megapixels above 0, not \(mp)")
            }
            limits.maxPixels = Int(v * 1_000_000)
        }
        if let (name, n) = value("SHRINK_MAX_ANIMATION_FRAMES", "IMGPROXY_MAX_ANIMATION_FRAMES") {
            guard let v = Int(n), v >= 1 else { throw ConfigurationError("\(name) must be 1 or more, not \(n)") }
            limits.maxAnimationFrames = v
        }
        if let (name, flag) = value("SHRINK_AUTO_AVIF", "IMGPROXY_AUTO_AVIF", "IMGPROXY_ENABLE_AVIF_DETECTION") {
            negotiation.avif = try Self.flag(flag, name: name)
        }
        if let (name, flag) = value("SHRINK_AUTO_WEBP", "IMGPROXY_AUTO_WEBP", "IMGPROXY_ENABLE_WEBP_DETECTION") {
            negotiation.webp = try Self.flag(flag, name: name)
        }
        if let t = environment["SHRINK_GALLERY_TOKEN"], !t.isEmpty {
            // Guessed over the network at request speed otherwise.
            guard t.utf8.count >= 16 else {
                throw ConfigurationError("SHRINK_GALLERY_TOKEN must be at least 16 characters")
            }
            galleryToken = t
        }
        if let (name, list) = value("IMGPROXY_PRESETS") {
            // imgproxy's syntax: `NAME=OPTION/OPTION,NAME=…`.
            for entry in list.split(separator: ",") where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
                guard let eq = entry.firstIndex(of: "="), !entry[..<eq].trimmingCharacters(in: .whitespaces).isEmpty
                else {
                    throw ConfigurationError("\(name) must be NAME=OPTIONS entries separated by commas, not \(entry)")
                }
                presets[entry[..<eq].trimmingCharacters(in: .whitespaces).lowercased()] = String(
                    entry[entry.index(after: eq)...])
            }
        }
        for (name, value) in environment where name.hasPrefix("SHRINK_PRESET_") {
            presets[String(name.dropFirst("SHRINK_PRESET_".count)).lowercased()] = value
        }
        imgproxyNames = read.sorted()
    }

    /// The boolean `value` of the variable `name`: `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off` (or empty) in
    /// any case. Fails on another value.
    static func flag(_ value: String, name: String) throws(ConfigurationError) -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw ConfigurationError("\(name) must be true or false, not \(value)")
        }
    }

    /// True when `source` (an http(s) URL) starts with one of ``allowedSources``, where `*` in an entry stands for
    /// any run of characters but `/` (imgproxy's wildcard: `https://*.example.com/`).
    package func allows(source: String) -> Bool {
        allowedSources.contains { Self.prefix(Substring($0), matches: Substring(source)) }
    }

    /// True when `text` starts with `pattern`, `*` in it matching any run of characters but `/`.
    static func prefix(_ pattern: Substring, matches text: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return text.hasPrefix(pattern) }
        let head = pattern[..<star], rest = pattern[pattern.index(after: star)...]
        guard text.hasPrefix(head) else { return false }
        var tail = text.dropFirst(head.count)
        while true {
            if prefix(rest, matches: tail) { return true }
            guard let c = tail.first, c != "/" else { return false }
            tail = tail.dropFirst()
        }
    }

    /// Sets ``host`` and ``port`` from `HOST:PORT` (`[::1]:8080` for IPv6); `name` is where it came from.
    package mutating func setBind(_ text: String, name: String = "bind address") throws(ConfigurationError) {
        guard let colon = text.lastIndex(of: ":"), let p = Int(text[text.index(after: colon)...]),
            (0...65535).contains(p)
        else {
            throw ConfigurationError("\(name) must be HOST:PORT, not \(text)")
        }
        var h = String(text[..<colon])
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        guard !h.isEmpty else { throw ConfigurationError("\(name) must name a host: \(text)") }
        host = h
        port = p
    }

    /// `123`, `64k`, `256M`, `2G` (binary units, any case); fails naming `name`.
    package static func bytes(_ text: String, name: String) throws(ConfigurationError) -> Int {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Int)] = [
            ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30),
            ("b", 1),
        ]
        for (suffix, scale) in units where t.hasSuffix(suffix) {
            if let v = Int(t.dropLast(suffix.count)), v > 0, v <= Int.max / scale { return v * scale }
            throw ConfigurationError("\(name) must be a byte count such as 256M, not \(text)")
        }
        guard let v = Int(t), v > 0 else {
            throw ConfigurationError("\(name) must be a byte count such as 256M, not \(text)")
        }
        return v
    }

    /// One line per setting, secrets masked: what the server prints at start.
    package var summary: [String] {
        func mib(_ b: Int) -> String { String(format: "%.0f MiB", Double(b) / 1_048_576) }
        return [
            "bind \(host.contains(":") ? "[\(host)]" : host):\(port)",
            "local root \(localRoot ?? "(none: local:// refused)")",
            "budget \(mib(budget)) (result cache \(resultCacheBytes == 0 ? "off" : mib(resultCacheBytes ?? budget / 2)) inside it), \(concurrency) decode thread(s), queue \(queueLimit) waiting at most \(maxQueueWait)",
            "disk cache \(cacheDirectory.map { "\($0) (\(mib(cacheBytes)))" } ?? "(none)")",
            "signing \(keys.isEnabled ? "\(keys.pairs.count) key/salt pair(s) (secrets masked: ****), \(keys.signatureBytes)-byte signatures" : "OFF: any signature is accepted ('insecure', 'unsafe', '_')")",
            "remote sources \(allowedSources.isEmpty ? "(none allowed)" : allowedSources.joined(separator: ", ")), at most \(mib(maxSourceBytes))",
            "gallery \(gallery ? "on at /_/browse/, " + (galleryToken == nil ? "loopback clients only" : "token required (****)") : "off")",
            "imgproxy's variables read: \(imgproxyNames.isEmpty ? "none" : imgproxyNames.joined(separator: ", ")) (values of secrets masked)",
            "quality \(quality), negotiated from Accept: \(negotiation.isEnabled ? [negotiation.avif ? "AVIF" : nil, negotiation.webp ? "WebP" : nil].compactMap { $0 }.joined(separator: ", ") : "off"), presets \(presets.keys.sorted().joined(separator: ", ").isEmpty ? "(none)" : presets.keys.sorted().joined(separator: ", "))",
        ]
    }
}
