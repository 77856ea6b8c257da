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
    /// The entries http(s) sources must fall under (``SourcePattern``: scheme, host with `*` labels, port, path
    /// prefix; ``allows(source:)``); empty refuses every remote source.
    package var allowedSources: [SourcePattern] = []
    /// The object store's endpoint, credentials, and whether and from which buckets `s3://` sources are served
    /// (``S3Settings``; off by default).
    package var s3 = S3Settings()
    /// The shared result tier: a bucket and a key prefix (`SHRINK_RESULT_STORE=s3://BUCKET[/PREFIX]`,
    /// `--result-store`) in the store ``s3`` names; nil for none (the default).
    package var resultStore: (bucket: String, prefix: String)?
    /// The result tier's deadline for a lookup's first byte (`SHRINK_RESULT_STORE_TIMEOUT`); 2 s by default.
    package var resultStoreTimeout: Duration = .seconds(2)
    /// The largest result written to the result tier (`SHRINK_RESULT_STORE_MAX_OBJECT_SIZE`); 16 MiB by default.
    package var resultStoreMaxObjectBytes = 16 << 20
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
    /// Limits checked from every header (pixels, frames…) and every plan: a result's longest side at most
    /// ``defaultMaxResultSide`` (`SHRINK_MAX_RESULT_DIMENSION`, 0 for none), whatever the budget allows, so that an
    /// unsigned URL cannot ask for an enormous upscale.
    package var limits: ImageLimits = {
        var limits = ImageLimits()
        limits.maxResultSide = defaultMaxResultSide
        return limits
    }()
    /// The server's longest result side by default: 8192 pixels (a 64 MP square; imgproxy has no default).
    package static let defaultMaxResultSide = 8192
    /// Output quality when the URL names none. `80` by default.
    package var quality = 80
    /// Output quality by format name (`jpeg`, `webp`, `avif`…) when the URL names none, before ``quality``
    /// (`SHRINK_FORMAT_QUALITY`, imgproxy's `IMGPROXY_FORMAT_QUALITY`: `webp=70,avif=60`). Empty by default.
    package var formatQuality: [String: Int] = [:]
    /// The formats offered to clients whose `Accept` names them, when the URL names no format (then `Vary: Accept`):
    /// AVIF (`SHRINK_AUTO_AVIF`), WebP (`SHRINK_AUTO_WEBP`), or both; each also under imgproxy's name
    /// (`IMGPROXY_AUTO_AVIF`, `IMGPROXY_AUTO_WEBP`, and the older `IMGPROXY_ENABLE_AVIF_DETECTION`,
    /// `IMGPROXY_ENABLE_WEBP_DETECTION`). Off by default.
    package var negotiation = FormatNegotiation()
    /// Presets by name (`pr:NAME`), each an option string; `default` applies to every URL (`SHRINK_PRESET_NAME`,
    /// imgproxy's `IMGPROXY_PRESETS`, or a file of `NAME=OPTIONS` lines: `SHRINK_PRESETS_PATH`,
    /// `IMGPROXY_PRESETS_PATH`).
    package var presets: [String: String] = [:]
    /// URLs name only presets, one a segment (`SHRINK_ONLY_PRESETS`, `IMGPROXY_ONLY_PRESETS`). Off by default.
    package var onlyPresets = false
    /// A Base64 source is followed by `/FILENAME.EXT` (`SHRINK_BASE64_URL_INCLUDES_FILENAME`,
    /// `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`). Off by default.
    package var base64IncludesFilename = false
    /// URLs may set their own limits with `msr`, `msfs`, `maf`, `mafr` (`SHRINK_ALLOW_SECURITY_OPTIONS`,
    /// `IMGPROXY_ALLOW_SECURITY_OPTIONS`). Off by default: a URL could raise them.
    package var allowsSecurityOptions = false
    /// `max-age` of image responses (`SHRINK_TTL`, `IMGPROXY_TTL`, seconds); nil: a year for signed URLs, an hour
    /// unsigned.
    package var ttl: Int?
    /// `Access-Control-Allow-Origin` on image responses (`SHRINK_ALLOW_ORIGIN`, `IMGPROXY_ALLOW_ORIGIN`); nil: none.
    package var allowOrigin: String?
    /// Prepended to every source that does not start with it (`SHRINK_BASE_URL`, `IMGPROXY_BASE_URL`).
    package var baseURL: String?
    /// Image URLs start with this path (`SHRINK_PATH_PREFIX`, `IMGPROXY_PATH_PREFIX`, e.g. `/img`); empty by default.
    package var pathPrefix = ""
    /// Signatures accepted without checking (`SHRINK_TRUSTED_SIGNATURES`, `IMGPROXY_TRUSTED_SIGNATURES`).
    package var trustedSignatures: Set<String> = []
    /// The image answered, processed as the URL asks, when the source cannot be had or read
    /// (`SHRINK_FALLBACK_IMAGE_PATH`/`_URL`, imgproxy's `IMGPROXY_FALLBACK_IMAGE_PATH`/`_URL`); nil: the error.
    package var fallbackImage: String?
    /// The status of a fallback image (`…_FALLBACK_IMAGE_HTTP_CODE`; 200 by default, as imgproxy's).
    package var fallbackStatus = 200
    /// `max-age` of a fallback image (`…_FALLBACK_IMAGE_TTL`); nil: ``ttl``'s, else no caching beyond a minute.
    package var fallbackTTL: Int?

    /// The image `wm` lays over results: a file (`SHRINK_WATERMARK_PATH`, `IMGPROXY_WATERMARK_PATH`) or its bytes in
    /// Base64 (`SHRINK_WATERMARK_DATA`, `IMGPROXY_WATERMARK_DATA`); nil: `wm` does nothing.
    package var watermarkImage: [UInt8]?
    /// The watermark's base opacity, 0–1 (`SHRINK_WATERMARK_OPACITY`, `IMGPROXY_WATERMARK_OPACITY`); 1 by default.
    package var watermarkOpacity = 1.0

    /// thumbor's `SECURITY_KEY` for its URLs' signatures (`SHRINK_THUMBOR_KEY`, `THUMBOR_SECURITY_KEY`); nil: only
    /// `unsafe` thumbor URLs.
    package var thumborKey: [UInt8]?
    /// thumbor's `/unsafe/` URLs are served (`SHRINK_THUMBOR_ALLOW_UNSAFE_URL`, `THUMBOR_ALLOW_UNSAFE_URL`); nil:
    /// ``allowsThumborUnsafe`` decides.
    package var thumborAllowsUnsafe: Bool?
    /// Whether `/unsafe/` thumbor URLs are served: as set, else on (thumbor's default) unless imgproxy signing is on —
    /// a server that signs its URLs does not serve unsigned ones through the other dialect unless told to.
    package var allowsThumborUnsafe: Bool { thumborAllowsUnsafe ?? !keys.isEnabled }

    /// Results keep the source's EXIF copyright and artist while the rest of the metadata is stripped
    /// (`SHRINK_KEEP_COPYRIGHT`, `IMGPROXY_KEEP_COPYRIGHT`); on by default, as imgproxy's.
    package var keepCopyright = true

    /// The rules image URLs are read by.
    package var urlRules: URLRules {
        var rules = URLRules(presets: presets)
        rules.onlyPresets = onlyPresets
        rules.base64IncludesFilename = base64IncludesFilename
        rules.allowsSecurityOptions = allowsSecurityOptions
        return rules
    }
    /// Deadlines of remote fetches: connect, first byte, whole body.
    package var connectTimeout: Duration = .seconds(3)
    package var firstByteTimeout: Duration = .seconds(10)
    package var downloadTimeout: Duration = .seconds(30)
    /// A connection with no traffic for this long closes (an idle keep-alive connection, a request body that
    /// stalled), never while its response is being made. 75 s by default (longer than nginx's 60 s upstream
    /// keepalive, so a proxy never writes into a connection being closed).
    package var idleTimeout: Duration = .seconds(75)
    /// The first request's head must arrive within this of the connection opening (`SHRINK_HEADER_TIMEOUT`,
    /// `--header-timeout`). 10 s by default.
    package var headerTimeout: Duration = .seconds(10)
    /// A request body may pause this long between parts (`SHRINK_BODY_IDLE_TIMEOUT`, `--body-idle-timeout`). 15 s
    /// by default.
    package var bodyIdleTimeout: Duration = .seconds(15)
    /// A request body must arrive whole within this of its head (`SHRINK_BODY_TIMEOUT`, `--body-timeout`): a
    /// body that trickles is cut. 60 s by default.
    package var bodyTimeout: Duration = .seconds(60)
    /// A request must be answered within this of its head (`SHRINK_REQUEST_TIMEOUT`, `--request-timeout`), or its
    /// connection is closed. 120 s by default.
    package var requestTimeout: Duration = .seconds(120)
    /// Connections open at once (`SHRINK_MAX_CONNECTIONS`, `--max-connections`); more are closed as they are
    /// accepted. 1024 by default.
    package var maxConnections = 1024
    /// A request head (target and header fields) of more bytes than this is answered 431 and its connection
    /// closed (`SHRINK_MAX_HEADER_BYTES`, `--max-header-bytes`; 1 KiB to 80 KiB, where the HTTP parser's own limit
    /// stops any). 32 KiB by default, as nginx's default header buffers hold.
    package var maxHeaderBytes = 32 << 10
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
        var reader = EnvironmentReader(environment)
        /// The value of the first of `names` that is set (Shrink's first); imgproxy's names are remembered.
        func value(_ names: String...) -> (name: String, value: String)? { reader.value(names) }
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
        if let (name, s) = value("SHRINK_ALLOWED_SOURCES", "IMGPROXY_ALLOWED_SOURCES") {
            let entries = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            do {
                allowedSources = try entries.map { entry throws(ConfigurationError) in try SourcePattern(entry) }
            } catch {
                throw ConfigurationError("\(name): \(error.description)")
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
        if let (name, list) = value("SHRINK_FORMAT_QUALITY", "IMGPROXY_FORMAT_QUALITY") {
            for entry in list.split(separator: ",") where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
                let parts = entry.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2,
                    let format = CodecRegistry.standard.writableFormat(forPath: "x." + parts[0].lowercased()),
                    let q = Int(parts[1]), (1...100).contains(q)
                else {
                    throw ConfigurationError(
                        "\(name) must be FORMAT=QUALITY entries (1–100) separated by commas, not \(entry)")
                }
                formatQuality[format.name] = q
            }
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
        for (name, keyPath) in [
            ("SHRINK_HEADER_TIMEOUT", \ServerConfiguration.headerTimeout),
            ("SHRINK_BODY_IDLE_TIMEOUT", \ServerConfiguration.bodyIdleTimeout),
            ("SHRINK_BODY_TIMEOUT", \ServerConfiguration.bodyTimeout),
            ("SHRINK_REQUEST_TIMEOUT", \ServerConfiguration.requestTimeout),
        ] {
            guard let text = environment[name] else { continue }
            self[keyPath: keyPath] = try Self.deadline(text, name: name)
        }
        if let text = environment["SHRINK_MAX_CONNECTIONS"] {
            guard let v = Int(text), v >= 1 else {
                throw ConfigurationError("SHRINK_MAX_CONNECTIONS must be 1 or more, not \(text)")
            }
            maxConnections = v
        }
        if let text = environment["SHRINK_MAX_HEADER_BYTES"] {
            maxHeaderBytes = try Self.headerBytes(text, name: "SHRINK_MAX_HEADER_BYTES")
        }
        if let (name, n) = value("SHRINK_MAX_RESULT_DIMENSION", "IMGPROXY_MAX_RESULT_DIMENSION") {
            guard let v = Int(n), v >= 0 else {
                throw ConfigurationError("\(name) must be pixels, 0 or more, not \(n)")
            }
            limits.maxResultSide = v == 0 ? Int.max : v
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
                presets[entry[..<eq].trimmingCharacters(in: .whitespaces).lowercased()] = entry[
                    entry.index(after: eq)...
                ].trimmingCharacters(in: .whitespaces)
            }
        }
        if let (name, path) = value("SHRINK_PRESETS_PATH", "IMGPROXY_PRESETS_PATH"), !path.isEmpty {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ConfigurationError("\(name): cannot read \(path)")
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let entry = line.trimmingCharacters(in: .whitespaces)
                guard !entry.isEmpty, !entry.hasPrefix("#") else { continue }
                guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else {
                    throw ConfigurationError("\(name): \(path) must hold NAME=OPTIONS lines, not \(entry)")
                }
                presets[entry[..<eq].trimmingCharacters(in: .whitespaces).lowercased()] = entry[
                    entry.index(after: eq)...
                ].trimmingCharacters(in: .whitespaces)
            }
        }
        if let (name, flag) = value("SHRINK_ONLY_PRESETS", "IMGPROXY_ONLY_PRESETS") {
            onlyPresets = try Self.flag(flag, name: name)
        }
        if let (name, flag) = value("SHRINK_BASE64_URL_INCLUDES_FILENAME", "IMGPROXY_BASE64_URL_INCLUDES_FILENAME") {
            base64IncludesFilename = try Self.flag(flag, name: name)
        }
        if let (name, flag) = value("SHRINK_ALLOW_SECURITY_OPTIONS", "IMGPROXY_ALLOW_SECURITY_OPTIONS") {
            allowsSecurityOptions = try Self.flag(flag, name: name)
        }
        if let (name, t) = value("SHRINK_TTL", "IMGPROXY_TTL") {
            guard let v = Int(t), v >= 0 else {
                throw ConfigurationError("\(name) must be seconds, 0 or more, not \(t)")
            }
            ttl = v
        }
        if let (_, origin) = value("SHRINK_ALLOW_ORIGIN", "IMGPROXY_ALLOW_ORIGIN"), !origin.isEmpty {
            allowOrigin = origin
        }
        if let (_, base) = value("SHRINK_BASE_URL", "IMGPROXY_BASE_URL"), !base.isEmpty { baseURL = base }
        if let (name, prefix) = value("SHRINK_PATH_PREFIX", "IMGPROXY_PATH_PREFIX"), !prefix.isEmpty {
            guard prefix.hasPrefix("/"), !prefix.hasSuffix("/"), !prefix.contains("?") else {
                throw ConfigurationError("\(name) must start with / and not end with one, not \(prefix)")
            }
            pathPrefix = prefix
        }
        if let (_, list) = value("SHRINK_TRUSTED_SIGNATURES", "IMGPROXY_TRUSTED_SIGNATURES") {
            trustedSignatures = Set(
                list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                })
        }
        if let (_, path) = value(
            "SHRINK_FALLBACK_IMAGE_PATH", "SHRINK_FALLBACK_IMAGE_URL", "IMGPROXY_FALLBACK_IMAGE_PATH",
            "IMGPROXY_FALLBACK_IMAGE_URL"), !path.isEmpty
        {
            fallbackImage = path
        }
        if let (name, code) = value("SHRINK_FALLBACK_IMAGE_HTTP_CODE", "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE") {
            guard let v = Int(code), (200...599).contains(v) else {
                throw ConfigurationError("\(name) must be an HTTP status, not \(code)")
            }
            fallbackStatus = v
        }
        if let (name, t) = value("SHRINK_FALLBACK_IMAGE_TTL", "IMGPROXY_FALLBACK_IMAGE_TTL") {
            guard let v = Int(t), v >= 0 else {
                throw ConfigurationError("\(name) must be seconds, 0 or more, not \(t)")
            }
            fallbackTTL = v
        }
        if let key = environment["SHRINK_THUMBOR_KEY"] ?? environment["THUMBOR_SECURITY_KEY"], !key.isEmpty {
            thumborKey = Array(key.utf8)
        }
        if let name = ["SHRINK_THUMBOR_ALLOW_UNSAFE_URL", "THUMBOR_ALLOW_UNSAFE_URL"].first(where: {
            environment[$0] != nil
        }) {
            thumborAllowsUnsafe = try Self.flag(environment[name]!, name: name)
        }
        if let (name, flag) = value("SHRINK_KEEP_COPYRIGHT", "IMGPROXY_KEEP_COPYRIGHT") {
            keepCopyright = try Self.flag(flag, name: name)
        }
        if let (name, path) = value("SHRINK_WATERMARK_PATH", "IMGPROXY_WATERMARK_PATH"), !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError("\(name): cannot read \(path)")
            }
            watermarkImage = [UInt8](data)
        } else if let (name, text) = value("SHRINK_WATERMARK_DATA", "IMGPROXY_WATERMARK_DATA"), !text.isEmpty {
            guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw ConfigurationError("\(name) must be Base64")
            }
            watermarkImage = [UInt8](data)
        }
        if let (name, o) = value("SHRINK_WATERMARK_OPACITY", "IMGPROXY_WATERMARK_OPACITY") {
            guard let v = Double(o), (0...1).contains(v) else {
                throw ConfigurationError("\(name) must be 0–1, not \(o)")
            }
            watermarkOpacity = v
        }
        s3 = try S3Settings(reading: &reader)
        if let text = environment["SHRINK_RESULT_STORE"], !text.isEmpty {
            resultStore = try Self.resultStore(text, name: "SHRINK_RESULT_STORE")
        }
        if let text = environment["SHRINK_RESULT_STORE_TIMEOUT"] {
            resultStoreTimeout = try Self.deadline(text, name: "SHRINK_RESULT_STORE_TIMEOUT")
        }
        if let text = environment["SHRINK_RESULT_STORE_MAX_OBJECT_SIZE"] {
            resultStoreMaxObjectBytes = try Self.bytes(text, name: "SHRINK_RESULT_STORE_MAX_OBJECT_SIZE")
        }
        if s3.servesSources || resultStore != nil {
            s3.credentials = try AWSCredentials.resolve(environment: environment)
        }
        for (name, value) in environment where name.hasPrefix("SHRINK_PRESET_") {
            presets[String(name.dropFirst("SHRINK_PRESET_".count)).lowercased()] = value
        }
        imgproxyNames = reader.imgproxyNames.sorted()
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

    /// True when `source` is an http(s) URL (``RemoteURL``: no user information, nothing read two ways) under one of
    /// ``allowedSources``.
    package func allows(source: String) -> Bool {
        guard let url = RemoteURL(source) else { return false }
        return allowedSources.contains { $0.matches(url) }
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

    /// The bucket and prefix of `s3://BUCKET[/PREFIX]` (no trailing `/`); fails naming `name`.
    package static func resultStore(_ text: String, name: String) throws(ConfigurationError) -> (
        bucket: String, prefix: String
    ) {
        var rest = Substring(text)
        guard rest.lowercased().hasPrefix("s3://") else {
            throw ConfigurationError("\(name) must be s3://BUCKET[/PREFIX], not \(text)")
        }
        rest = rest.dropFirst(5)
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        let bucket = rest.prefix { $0 != "/" }
        let prefix = rest.dropFirst(bucket.count).drop { $0 == "/" }
        guard S3Location.isBucketName(bucket), prefix.isEmpty || S3Location.isKey(prefix), !prefix.utf8.contains(0x3F)
        else {
            throw ConfigurationError("\(name) must be s3://BUCKET[/PREFIX] with a bucket name S3 allows, not \(text)")
        }
        return (String(bucket), String(prefix))
    }

    /// `10`, `0.5`: seconds above 0 and at most a day, as a deadline; fails naming `name`.
    package static func deadline(_ text: String, name: String) throws(ConfigurationError) -> Duration {
        guard let v = Double(text), v > 0, v <= 86_400 else {
            throw ConfigurationError(
                "\(name) must be seconds above 0 and at most 86400, such as 10 or 0.5, not \(text)")
        }
        return .milliseconds(Int(v * 1000))
    }

    /// The request-head limit `text` gives (`32k`, `8192`: ``bytes(_:name:)``), from 1 KiB to 80 KiB (the HTTP
    /// parser's own limit); fails naming `name`.
    package static func headerBytes(_ text: String, name: String) throws(ConfigurationError) -> Int {
        let v = try bytes(text, name: name)
        guard (1 << 10)...(80 << 10) ~= v else {
            throw ConfigurationError("\(name) must be from 1k to 80k bytes, not \(text)")
        }
        return v
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
            "remote sources \(allowedSources.isEmpty ? "(none allowed)" : allowedSources.map(\.description).joined(separator: ", ")), at most \(mib(maxSourceBytes))",
            s3.servesSources || resultStore != nil
                ? "object store \(s3.endpoint) (\(s3.region), \(s3.usesPathStyle ? "path style" : "virtual-hosted")), \(s3.credentials.map { "signed as \($0.accessKeyID.prefix(4))****" } ?? "anonymous (no AWS credentials found)"); s3:// sources \(s3.servesSources ? "from buckets " + (s3.allowedBuckets.isEmpty ? "(none allowed: set SHRINK_S3_ALLOWED_BUCKETS)" : s3.allowedBuckets.sorted().joined(separator: ", ")) : "off"); result store \(resultStore.map { "s3://\($0.bucket)" + ($0.prefix.isEmpty ? "" : "/\($0.prefix)") } ?? "(none)")"
                : "s3:// sources off, no result store",
            "gallery \(gallery ? "on at /_/browse/, " + (galleryToken == nil ? "loopback clients only" : "token required (****)") : "off")",
            "imgproxy's variables read: \(imgproxyNames.isEmpty ? "none" : imgproxyNames.joined(separator: ", ")) (values of secrets masked)",
            "thumbor URLs: \(thumborKey == nil ? "no key" : "signed with a key (****)")\(allowsThumborUnsafe ? (thumborKey == nil ? ", /unsafe/ served" : ", but /unsafe/ still served (THUMBOR_ALLOW_UNSAFE_URL=false to refuse it)") : ", /unsafe/ refused")",
            "URLs: \(pathPrefix.isEmpty ? "" : "under \(pathPrefix), ")\(onlyPresets ? "presets only, " : "")\(base64IncludesFilename ? "Base64 sources with a filename, " : "")security options \(allowsSecurityOptions ? "allowed" : "refused"), \(trustedSignatures.count) trusted signature(s), base URL \(baseURL ?? "(none)"), max-age \(ttl.map(String.init) ?? "default"), CORS \(allowOrigin ?? "off"), fallback image \(fallbackImage.map { "\($0) (status \(fallbackStatus))" } ?? "(none)")",
            "quality \(quality)\(formatQuality.isEmpty ? "" : " (" + formatQuality.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"), negotiated from Accept: \(negotiation.isEnabled ? [negotiation.avif ? "AVIF" : nil, negotiation.webp ? "WebP" : nil].compactMap { $0 }.joined(separator: ", ") : "off"), presets \(presets.keys.sorted().joined(separator: ", ").isEmpty ? "(none)" : presets.keys.sorted().joined(separator: ", "))",
        ]
    }
}
