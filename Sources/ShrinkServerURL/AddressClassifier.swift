/// Tells whether an IP address may be fetched from: public unicast only, by default. Refused: unspecified,
/// loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 — cloud metadata
/// services live there — and fe80::/10), CGNAT (100.64/10), multicast and broadcast, documentation,
/// benchmarking and reserved ranges, and IPv6 forms that embed an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`,
/// IPv4-compatible, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32), which are
/// judged by the address they embed or refused outright.
///
/// Pure: it never opens a connection, so every range can be tested offline.
package enum AddressClassifier {
    /// Why an address is refused, or nil when it may be fetched.
    package static func refusal(_ address: IPAddress) -> String? {
        switch address {
        case .v4(let a): return refusal(v4: a)
        case .v6(let b): return refusal(v6: b)
        }
    }

    private static func refusal(v4 a: (UInt8, UInt8, UInt8, UInt8)) -> String? {
        let (x, y, z, _) = a
        switch x {
        case 0: return "unspecified or \"this network\" (0.0.0.0/8)"
        case 10: return "private (10.0.0.0/8)"
        case 127: return "loopback (127.0.0.0/8)"
        case 100 where (64...127).contains(y): return "carrier-grade NAT (100.64.0.0/10)"
        case 169 where y == 254: return "link-local (169.254.0.0/16, cloud metadata)"
        case 172 where (16...31).contains(y): return "private (172.16.0.0/12)"
        case 192 where y == 168: return "private (192.168.0.0/16)"
        case 192 where y == 0 && z == 0: return "IETF protocol assignments (192.0.0.0/24)"
        case 192 where y == 0 && z == 2: return "documentation (192.0.2.0/24)"
        case 192 where y == 88 && z == 99: return "6to4 relay anycast (192.88.99.0/24)"
        case 198 where y == 18 || y == 19: return "benchmarking (198.18.0.0/15)"
        case 198 where y == 51 && z == 100: return "documentation (198.51.100.0/24)"
        case 203 where y == 0 && z == 113: return "documentation (203.0.113.0/24)"
        case 224...239: return "multicast (224.0.0.0/4)"
        case 240...255: return "reserved or broadcast (240.0.0.0/4)"
        default: return nil
        }
    }

    private static func refusal(v6 b: [UInt8]) -> String? {
        let zeros10 = b[0..<10].allSatisfy { $0 == 0 }
        if b.allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback (::1)" }
        if zeros10 && b[10] == 0xFF && b[11] == 0xFF {
            return refusal(v4: (b[12], b[13], b[14], b[15])).map { "IPv4-mapped " + $0 }
                ?? "IPv4-mapped (::ffff:0:0/96)"
        }
        if zeros10 && b[10] == 0 && b[11] == 0 { return "IPv4-compatible (::/96, deprecated)" }
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B { return "NAT64 (64:ff9b::/96, 64:ff9b:1::/48)" }
        if b[0] == 0x01, b[1] == 0x00, b[2..<8].allSatisfy({ $0 == 0 }) { return "discard-only (100::/64)" }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 { return "Teredo (2001::/32)" }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return "documentation (2001:db8::/32)" }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, (b[3] & 0xF0) == 0x10 { return "ORCHID (2001:10::/28)" }
        if b[0] == 0x20, b[1] == 0x02 { return "6to4 (2002::/16)" }
        if (b[0] & 0xFE) == 0xFC { return "unique local (fc00::/7)" }
        if b[0] == 0xFE, (b[1] & 0xC0) == 0x80 { return "link-local (fe80::/10)" }
        if b[0] == 0xFE, (b[1] & 0xC0) == 0xC0 { return "site-local (fec0::/10, deprecated)" }
        if b[0] == 0xFF { return "multicast (ff00::/8)" }
        if (b[0] & 0xE0) != 0x20 { return "not global unicast (outside 2000::/3)" }
        return nil
    }
}
