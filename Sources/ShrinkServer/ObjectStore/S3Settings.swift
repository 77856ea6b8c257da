import ShrinkServerURL

/// Where and how `s3://` sources and the shared result tier are read: the store's endpoint (AWS's regional one, or any store speaking S3's
/// protocol), its region, path-style or virtual-hosted addressing, the buckets sources may name, and the credentials
/// requests are signed with (none: anonymous requests, for public buckets).
package struct S3Settings: Sendable {
    /// `http` or `https`.
    package var scheme = "https"
    /// The endpoint's host (an IPv6 literal in brackets) and port; nil: `s3.REGION.amazonaws.com:443`.
    package var host: String?
    package var port: Int?
    /// The region requests are signed for. `us-east-1` by default.
    package var region = "us-east-1"
    /// Path-style addressing (`ENDPOINT/BUCKET/KEY`) rather than virtual-hosted (`BUCKET.ENDPOINT/KEY`); nil: path
    /// style for a configured endpoint (MinIO, Ceph, moto expect it), virtual-hosted for AWS.
    package var pathStyle: Bool?
    /// Whether `s3://` sources are served. Off by default.
    package var servesSources = false
    /// The buckets sources may name. Empty by default: every `s3://` source is refused.
    package var allowedBuckets: Set<String> = []
    /// Signing keys; nil sends requests unsigned.
    package var credentials: AWSCredentials?
    /// How long an object's validator (its ETag, else Last-Modified) is trusted before it is asked again; the
    /// validator is part of the result's cache key and ETag, so a changed object is decoded afresh after at most
    /// this. Objects named with a version never change and are asked once. 60 s by default.
    package var validatorLifetime: Duration = .seconds(60)

    package init() {}

    /// The endpoint's `host[:port]` (the port only when not the scheme's): what path-style requests are sent to.
    package var authority: String {
        (host ?? "s3.\(region).amazonaws.com")
            + (port.map { $0 == RemoteURL.defaultPort(scheme) ? "" : ":\($0)" } ?? "")
    }

    /// The endpoint's `scheme://host[:port]`.
    package var endpoint: String { "\(scheme)://\(authority)" }

    /// Whether requests name the bucket in the path.
    package var usesPathStyle: Bool { pathStyle ?? (host != nil) }

    /// True when `bucket` is one sources may name.
    package func allows(bucket: String) -> Bool { allowedBuckets.contains(bucket) }

    /// Sets ``scheme``, ``host`` and ``port`` from `text` (`http(s)://HOST[:PORT]`, or `HOST[:PORT]` for https);
    /// fails naming `name`.
    package mutating func setEndpoint(_ text: String, name: String) throws(ConfigurationError) {
        let full = text.contains("://") ? text : "https://" + text
        guard let url = RemoteURL(full), url.path == "/", !url.host.isEmpty, !full.contains("?") else {
            throw ConfigurationError("\(name) must be http(s)://HOST[:PORT] with no path, not \(text)")
        }
        scheme = url.scheme
        host = url.host
        port = url.port
    }
}
