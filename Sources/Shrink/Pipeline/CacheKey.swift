import ShrinkCore

/// The identity of one result, built from typed fields: `name=value` pairs in a fixed order, each value
/// spelled one way (never a type's printed description, which changes with module names and Swift versions),
/// behind a format version. Keys are persisted by the disk cache and hashed into ETags, so a change to what
/// a field means must bump ``version``.
///
/// Keys are equal when their fields are the same bytes: Swift's `String ==` takes text in NFC and in NFD as one, where
/// two object keys or paths spelled so name two sources. Comparing and hashing cost one pass over the bytes.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The key format's version, the first field of every key.
    public static let version = 3

    /// The fields in order, values percent-escaped (`%`, `|` and `=`).
    public let fields: [String]

    /// A key of `fields` (names and raw values), behind the version.
    public init(_ fields: [(String, String)]) {
        self.fields = ["v=\(Self.version)"] + fields.map { "\($0.0)=\(Self.escape($0.1))" }
    }

    /// The canonical string: the fields joined by `|`.
    public var string: String { fields.joined(separator: "|") }

    public var description: String { string }

    /// The SHA-256 of ``string`` in hex: stable across processes, machines and versions of Shrink that
    /// share ``version``.
    public var digest: String { SHA256.hex(string) }

    /// The same key with more fields after these (a result's output settings after its image's fields).
    public func appending(_ more: [(String, String)]) -> CacheKey {
        CacheKey(fields: fields + more.map { "\($0.0)=\(Self.escape($0.1))" })
    }

    private init(fields: [String]) { self.fields = fields }

    public static func == (a: CacheKey, b: CacheKey) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields { hasher.combine(utf8: field) }
    }

    /// The same key with only the fields named `names` (in their order, behind the version).
    package func keeping(_ names: Set<String>) -> CacheKey {
        CacheKey(
            fields: fields.filter { field in
                field.hasPrefix("v=") || names.contains(String(field.prefix { $0 != "=" }))
            })
    }

    private static func escape(_ value: String) -> String {
        var out = ""
        for c in value.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "|": out += "%7C"
            case "=": out += "%3D"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension ThumbnailOptions {
    /// The options that shape a result's pixels once its plan is made (mode, strictness, embedded thumbnails,
    /// pixel format policy, colour), one spelling each: shared by a request's key and its result's key.
    var pixelKeyFields: [(String, String)] {
        [
            ("m", mode.rawValue), ("strict", strict ? "1" : "0"),
            ("thumb", useEmbeddedThumbnail.map { $0 ? "1" : "0" } ?? "auto"),
            ("px", pixelFormat.keyValue), ("c", color.rawValue),
        ] + (finishing.isEmpty ? [] : [("fin", finishing.keyValue)])
            + (gravity.findsAttention ? [("g", "attention")] : []) + (trim.map { [("trim", $0.keyValue)] } ?? [])
    }
}

extension ThumbnailTarget {
    /// One spelling per target: `original`, `max:N`, `box:WxH:fit`, `prescale:D`. A square box filled
    /// inside is the same thumbnail as a long side of its width, for every image, and is spelled so.
    var keyValue: String {
        switch self {
        case .original: "original"
        case .maxPixelSize(let n): "max:\(n)"
        case .box(let s, .inside) where s.width == s.height: "max:\(s.width)"
        case .box(let s, let fit): "box:\(s.width)x\(s.height):\(fit.rawValue)"
        case .prescale(let d): "prescale:\(d)"
        }
    }
}

extension PixelFormatRequest {
    /// One spelling per policy: `memory`, `display`, `precise`, `native`, or an exact format's raw name.
    var keyValue: String {
        switch self {
        case .memoryOptimized: "memory"
        case .displayReady: "display"
        case .highPrecision: "precise"
        case .native: "native"
        case .exactly(let f): f.rawValue
        }
    }
}
