/// An `http(s)://` source URL taken apart strictly, the way the allowlist (``SourcePattern``) compares it: scheme,
/// host, port and path. Anything a URL parser could read two ways is refused rather than guessed at: user information
/// (`http://allowed.example@elsewhere/`), a backslash, whitespace, control characters or any byte outside ASCII (a
/// combining mark would make `/` part of another character here while curl sends the bytes), a percent sign or an
/// empty label in the host, a port outside 1–65535, `.` or `..` path segments (written plainly or percent-encoded),
/// which curl would resolve away from the path the allowlist saw, and an encoded `/`, `\` or `%` in the path
/// (`%2F`, `%5C`, `%25`), which an origin decoding them could resolve the same way.
package struct RemoteURL: Sendable, Equatable {
    /// `http` or `https`.
    package let scheme: String
    /// The host in lower case, without a trailing dot; an IPv6 literal keeps its brackets.
    package let host: String
    /// The port, the scheme's default when the URL writes none.
    package let port: Int
    /// The path (`/` when the URL has none), without the query or fragment.
    package let path: String

    /// `text` taken apart, or nil when it is not an http(s) URL this reads unambiguously.
    package init?(_ text: String) {
        guard let parts = Self.split(text, wildcards: false) else { return nil }
        (scheme, host, port, path) = (
            parts.scheme, parts.host, parts.port ?? Self.defaultPort(parts.scheme), parts.path
        )
    }

    /// The default port of `scheme`.
    package static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    /// Scheme, host, port (nil when not written) and path of `text`; host labels may be `*` when `wildcards`. Nil
    /// for anything ``RemoteURL`` refuses; an empty host only for `scheme://` alone.
    static func split(_ text: String, wildcards: Bool) -> (scheme: String, host: String, port: Int?, path: String)? {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else { return nil }
        let lower = text.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") {
            scheme = "http"
        } else if lower.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let rest = Substring(text.dropFirst(scheme.count + 3))
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = rest[authorityEnd...]
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        if authority.isEmpty { return rest.isEmpty ? (scheme, "", nil, "/") : nil }
        guard !authority.contains("@"), !authority.contains("%") else { return nil }
        // Host and port: `[v6]:port`, `name:port`, or either alone.
        var host: Substring, port: Int?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            guard let p = Self.port(after.dropFirst()) else { return nil }
            port = p
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                guard let p = Self.port(authority[authority.index(after: colon)...]) else { return nil }
                port = p
            } else {
                host = authority
                port = nil
            }
            if host.hasSuffix(".") { host = host.dropLast() }
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard !labels.isEmpty,
                labels.allSatisfy({ label in
                    (wildcards && label == "*")
                        || (!label.isEmpty
                            && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
                })
            else { return nil }
        }
        let lowerPath = path.lowercased()
        guard !lowerPath.contains("%2f"), !lowerPath.contains("%5c"), !lowerPath.contains("%25") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard
            !segments.contains(where: {
                let s = $0.lowercased().replacingOccurrences(of: "%2e", with: ".")
                return s == "." || s == ".."
            })
        else { return nil }
        return (scheme, host.lowercased(), port, path.isEmpty ? "/" : String(path))
    }

    /// The port after `:` (nil result: not a port; an empty one is the default, as curl reads it).
    private static func port(_ digits: Substring) -> Int?? {
        if digits.isEmpty { return .some(nil) }
        guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let p = Int(digits),
            (1...65535).contains(p)
        else { return nil }
        return .some(p)
    }
}
