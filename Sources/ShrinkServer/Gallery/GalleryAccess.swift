import Foundation
import Shrink
import ShrinkServerURL

/// Who may use the gallery (`shrink serve --gallery`). Without a token, loopback clients only (127.0.0.0/8,
/// ::1, IPv4-mapped loopback) that name a loopback `Host` and send no forwarding header (`Forwarded`,
/// `X-Forwarded-*`, `X-Real-IP`, `Via`): a reverse proxy on this machine is a loopback peer, and what it forwards is
/// everyone's. With `SHRINK_GALLERY_TOKEN`, every client, loopback included, must send the token as
/// `Authorization: Bearer TOKEN` or carry the cookie `/_/login` sets: its expiry and an HMAC of the token and the
/// expiry, never the token itself (`HttpOnly`, `SameSite=Strict`, `Max-Age` ``sessionSeconds``; a new token ends
/// every session). Comparisons take constant time, whatever the lengths.
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
        /// No token is configured and the request came through a proxy (a forwarding header): 403.
        case forwarded
    }

    /// How long a login lasts.
    package static let sessionSeconds = 7 * 24 * 3600

    /// The name of the session cookie.
    package static let cookieName = "shrink_gallery"
    private let token: [UInt8]?

    /// Access with `token` (nil or empty: loopback only).
    package init(token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    /// True when a token is configured.
    package var requiresToken: Bool { token != nil }

    /// The decision for a client at `remote` (nil when unknown) sending `host` (the `Host` header or the
    /// request target's authority), `authorization` and `cookieHeader`, `forwarded` when the request carries a
    /// forwarding header; `now` is Unix time (for the session's expiry).
    package func decide(
        remote: IPAddress?, host: String?, authorization: String?, cookieHeader: String?, forwarded: Bool = false,
        now: Int = Int(Date().timeIntervalSince1970)
    ) -> Decision {
        guard let token else {
            guard remote.map(Self.isLoopback) == true else { return .notLoopback }
            guard !forwarded else { return .forwarded }
            return Self.isLoopbackHost(host) ? .allowed : .foreignHost
        }
        if let authorization, authorization.hasPrefix("Bearer "),
            Self.sameSecret(Array(authorization.dropFirst("Bearer ".count).utf8), token)
        {
            return .allowed
        }
        for pair in (cookieHeader ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == Self.cookieName else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard let dash = value.firstIndex(of: "-"), let expiry = Int(value[..<dash]), expiry > now,
                expiry <= now + Self.sessionSeconds
            else { continue }
            if Self.sameSecret(Array(value.utf8), Array(Self.session(token: token, expiry: expiry).utf8)) {
                return .allowed
            }
        }
        return .loginRequired
    }

    /// The `Set-Cookie` value for a login with `candidate` at `now`, or nil when it is not the token.
    package func login(with candidate: String, now: Int = Int(Date().timeIntervalSince1970)) -> String? {
        guard let token, Self.sameSecret(Array(candidate.utf8), token) else { return nil }
        let value = Self.session(token: token, expiry: now + Self.sessionSeconds)
        return "\(Self.cookieName)=\(value); Path=/_/; Max-Age=\(Self.sessionSeconds); HttpOnly; SameSite=Strict"
    }

    /// A session cookie's value: its expiry and the HMAC of it under the token.
    private static func session(token: [UInt8], expiry: Int) -> String {
        "\(expiry)-"
            + SHA256.hexDigits(
                HMACSHA256.authenticationCode(for: Array("shrink-gallery-session \(expiry)".utf8), key: token))
    }

    /// `a` and `b` are the same secret, compared in time that depends on neither's length nor content (their
    /// digests are compared).
    static func sameSecret(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        SigningKeys.constantTimeEqual(SHA256.hash(a), SHA256.hash(b))
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
