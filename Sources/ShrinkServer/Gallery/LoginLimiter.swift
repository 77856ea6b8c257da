import ShrinkServerURL
import Synchronization

/// Failed gallery logins counted per client address: after ``maxFailures`` failures within ``windowSeconds`` of the
/// first, that address's logins are refused (429, `Retry-After`) until the window has passed, so a token cannot be
/// guessed at the speed of the network. A failure is a wrong token at `/_/login`, and a request carrying a wrong
/// `Authorization: Bearer` token or session cookie. IPv6 clients are counted by their /64 (one host holds a whole
/// /64); behind a reverse proxy every client is the proxy's address, so there a run of failures holds everyone off
/// for the window. Failures expire with their window only: a success does not clear them (an attacker sharing a
/// proxy's address with a user must not be reset by the user's logins).
///
/// Memory: one entry per address that failed within the window, at most ``maxAddresses`` (the oldest dropped first).
package final class LoginLimiter: Sendable {
    package static let maxFailures = 5
    package static let windowSeconds = 60
    package static let maxAddresses = 4096
    private let failures = Mutex<[String: (count: Int, since: Int)]>([:])

    package init() {}

    /// The key `address` is counted under: an IPv4 address whole, an IPv6 address's /64, `unknown` without one.
    package static func key(for address: IPAddress?) -> String {
        guard let address else { return "unknown" }
        if case .v6(let b) = address { return b[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64" }
        return address.description
    }

    /// Seconds `address` must wait before its next login at `now`, or nil when it may try.
    package func wait(for address: String, now: Int) -> Int? {
        failures.withLock { f in
            guard let entry = f[address] else { return nil }
            let end = entry.since + Self.windowSeconds
            if end <= now {
                f[address] = nil
                return nil
            }
            return entry.count >= Self.maxFailures ? end - now : nil
        }
    }

    /// The answer to a login (or credentials) from `address` at `now` while it must wait: 429 with `Retry-After`;
    /// nil when it may try.
    package func refusal(for address: String, now: Int) -> ServerResponse? {
        wait(for: address, now: now).map {
            .text(429, "too many failed logins: try again later", headers: [("Retry-After", String($0))])
        }
    }

    /// Counts a failed login from `address` at `now`.
    package func failed(_ address: String, now: Int) {
        failures.withLock { f in
            if let entry = f[address], entry.since + Self.windowSeconds > now {
                f[address] = (entry.count + 1, entry.since)
                return
            }
            if f.count >= Self.maxAddresses {
                f = f.filter { $0.value.since + Self.windowSeconds > now }
                if f.count >= Self.maxAddresses, let oldest = f.min(by: { $0.value.since < $1.value.since }) {
                    f[oldest.key] = nil
                }
            }
            f[address] = (1, now)
        }
    }

}
