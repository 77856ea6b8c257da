import Shrink

/// HMAC-SHA256 (RFC 2104) over Shrink's SHA-256: what URL signatures are made of. Checked against RFC 4231's
/// test vectors and imgproxy's signatures. (swift-crypto would do the same; it is not a dependency because its
/// BoringSSL copy costs minutes of every clean build.)
package enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var k = key.count > 64 ? SHA256.hash(key) : key
        k += [UInt8](repeating: 0, count: 64 - k.count)
        var inner = SHA256()
        inner.update(k.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finish()
        var outer = SHA256()
        outer.update(k.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finish()
    }
}
