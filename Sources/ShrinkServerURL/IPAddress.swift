#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import ShrinkCore

/// An IPv4 or IPv6 address as bytes, parsed from text with `inet_pton` (IPv6 may be bracketed).
package enum IPAddress: Sendable, CustomStringConvertible {
    case v4((UInt8, UInt8, UInt8, UInt8))
    case v6([UInt8])

    /// Parses `1.2.3.4`, `::1`, `[::ffff:127.0.0.1]`; nil for anything else (host names included).
    package init?(_ text: some StringProtocol) {
        var s = String(text)
        // inet_pton reads a C string: "1.2.3.4\0anything" would parse as 1.2.3.4.
        guard !s.utf8.contains(0) else { return nil }
        if s.hasPrefix("["), s.hasSuffix("]") { s = String(s.dropFirst().dropLast()) }
        if let pct = s.firstIndex(of: "%") { s = String(s[..<pct]) } // a zone index names an interface
        var v4 = in_addr()
        if inet_pton(AF_INET, s, &v4) == 1 {
            self.init(v4)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, s, &v6) == 1 {
            self.init(v6)
            return
        }
        return nil
    }

    /// The address in `in_addr` (network byte order), as `getaddrinfo` and `inet_pton` give it.
    package init(_ address: in_addr) {
        let b = withUnsafeBytes(of: address) { Array($0) }
        self = .v4((b[0], b[1], b[2], b[3]))
    }

    /// The address in `in6_addr`, as `getaddrinfo` and `inet_pton` give it.
    package init(_ address: in6_addr) {
        self = .v6(withUnsafeBytes(of: address) { Array($0) })
    }

    package var description: String {
        switch self {
        case .v4(let a): return "\(a.0).\(a.1).\(a.2).\(a.3)"
        case .v6(let b):
            var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            var addr = in6_addr()
            withUnsafeMutableBytes(of: &addr) { $0.copyBytes(from: b) }
            inet_ntop(AF_INET6, &addr, &buf, socklen_t(buf.count))
            return String(cBuffer: buf)
        }
    }
}
