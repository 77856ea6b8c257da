/// One entry of the remote-source allowlist (`SHRINK_ALLOWED_SOURCES`, imgproxy's `IMGPROXY_ALLOWED_SOURCES`),
/// parsed at start: a scheme, a host (exact, or with `*` standing for one whole label, `https://*.example.com/`), a
/// port (the scheme's default when the entry writes none) and a path prefix that ends on a segment boundary
/// (`https://cdn.example.com/images` allows `/images` and `/images/…`, not `/images2`). `http://` or `https://`
/// alone allows every host of that scheme. A source matches when ``RemoteURL`` takes it apart and every part agrees:
/// sources are compared as URLs, never as strings, so user information, a longer port or a look-alike host never
/// walks past an entry. The same matcher is applied to every redirect.
package struct SourcePattern: Sendable, Equatable, CustomStringConvertible {
    package let scheme: String
    /// The host's labels (`*` for any one label); empty for a scheme alone.
    package let labels: [String]
    /// The port; nil for a scheme alone.
    package let port: Int?
    /// The path prefix, `/` for any path.
    package let path: String
    /// The entry as written.
    package let description: String

    /// `entry` parsed; fails naming it when it is not `http(s)://HOST[:PORT][/PATH]` with `*` only as whole host
    /// labels and no user information, query, fragment or dot segments.
    package init(_ entry: String) throws(ConfigurationError) {
        description = entry
        let why =
            "must be http(s)://HOST[:PORT][/PATH], with * only as a whole host label and no user information, query or fragment"
        guard !entry.contains("?"), !entry.contains("#"), let parts = RemoteURL.split(entry, wildcards: true),
            !parts.path.contains("*")
        else {
            throw ConfigurationError("allowed source \(entry) \(why)")
        }
        scheme = parts.scheme
        if parts.host.isEmpty {
            labels = []
            port = nil
        } else {
            labels = parts.host.hasPrefix("[") ? [parts.host] : parts.host.split(separator: ".").map(String.init)
            port = parts.port ?? RemoteURL.defaultPort(parts.scheme)
        }
        path = parts.path
    }

    /// True when `url` is under this entry.
    package func matches(_ url: RemoteURL) -> Bool {
        guard url.scheme == scheme else { return false }
        guard !labels.isEmpty else { return true }
        guard url.port == port else { return false }
        let host = url.host.hasPrefix("[") ? [url.host] : url.host.split(separator: ".").map(String.init)
        guard host.count == labels.count, zip(labels, host).allSatisfy({ $0 == "*" || $0 == $1 }) else { return false }
        if path == "/" || url.path == path { return true }
        return url.path.hasPrefix(path.hasSuffix("/") ? path : path + "/")
    }
}
