import Foundation
import Shrink
import ShrinkServerURL

/// Who may use the gallery (`shrink serve --gallery`). Without a token, loopback clients only (127.0.0.0/8,
/// ::1, IPv4-mapped loopback). With `SHRINK_GALLERY_TOKEN`, every client, loopback included, must send the
/// token as `Authorization: Bearer TOKEN` or carry the cookie `/_/login` sets (an HMAC of the token, never the
/// token itself; `HttpOnly`, `SameSite=Strict`). Comparisons take constant time.
package struct GalleryAccess: Sendable {
    /// What a request may do.
    package enum Decision: Equatable, Sendable {
        case allowed
        /// A token is configured and the request carries none that matches: the login page (401).
        case loginRequired
        /// No token is configured and the client is not on loopback (403).
        case notLoopback
        /// No token is configured and the `Host` header names no loopback host: a DNS-rebinding page (its own
        /// name resolved to 127.0.0.1) or a reverse proxy on this machine forwarding other clients (421).
        case foreignHost
    }

    /// The name of the session cookie.
    package static let cookieName = "shrink_gallery"
    private let token: [UInt8]?
    private let cookie: [UInt8]?

    /// Access with `token` (nil or empty: loopback only).
    package init(token: String?) {
        let t = token.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
        self.token = t
        cookie = t.map {
            Array(SHA256.hex(HMACSHA256.authenticationCode(for: Array("shrink-gallery-session".utf8), key: $0)).utf8)
        }
    }

    /// True when a token is configured.
    package var requiresToken: Bool { token != nil }

    /// The decision for a client at `remote` (nil when unknown) sending `host` (the `Host` header or the
    /// request target's authority), `authorization` and `cookieHeader`.
    package func decide(remote: IPAddress?, host: String?, authorization: String?, cookieHeader: String?) -> Decision {
        guard let token, let cookie else {
            guard remote.map(Self.isLoopback) == true else { return .notLoopback }
            return Self.isLoopbackHost(host) ? .allowed : .foreignHost
        }
        if let authorization, authorization.hasPrefix("Bearer "),
            SigningKeys.constantTimeEqual(Array(authorization.dropFirst("Bearer ".count).utf8), token)
        {
            return .allowed
        }
        for pair in (cookieHeader ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == Self.cookieName,
                SigningKeys.constantTimeEqual(Array(parts[1].trimmingCharacters(in: .whitespaces).utf8), cookie)
            {
                return .allowed
            }
        }
        return .loginRequired
    }

    /// The `Set-Cookie` value for a login with `candidate`, or nil when it is not the token.
    package func login(with candidate: String) -> String? {
        guard let token, let cookie, SigningKeys.constantTimeEqual(Array(candidate.utf8), token) else { return nil }
        return "\(Self.cookieName)=\(String(decoding: cookie, as: UTF8.self)); Path=/_/; HttpOnly; SameSite=Strict"
    }

    /// `localhost`, a loopback IPv4 address or `[::1]`, with or without a port.
    static func isLoopbackHost(_ host: String?) -> Bool {
        guard var h = host?.lowercased(), !h.isEmpty else { return false }
        if h.hasPrefix("[") {
            guard let end = h.firstIndex(of: "]") else { return false }
            h = String(h[h.index(after: h.startIndex)..<end])
        } else if let colon = h.lastIndex(of: ":") {
            h = String(h[..<colon])
        }
        if h == "localhost" || h.hasSuffix(".localhost") { return true }
        return IPAddress(h).map(isLoopback) ?? false
    }

    /// 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104.
    static func isLoopback(_ address: IPAddress) -> Bool {
        switch address {
        case .v4(let a): return a.0 == 127
        case .v6(let b):
            if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return true }
            return b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF && b[12] == 127
        }
    }
}
