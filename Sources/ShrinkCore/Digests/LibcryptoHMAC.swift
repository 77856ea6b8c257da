import CShrinkCrypto

/// HMAC (RFC 2104) through the system's libcrypto's one-shot `HMAC`, for the digests ``HMACSHA256`` and ``HMACSHA1``
/// name. It keeps no state between calls.
enum LibcryptoHMAC {
    /// The `length`-byte MAC of `message` under `key` with `digest` (`EVP_sha256()`, `EVP_sha1()`).
    static func code(for message: [UInt8], key: [UInt8], digest: OpaquePointer?, length expected: Int) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: expected)
        var length: UInt32 = 0
        // An empty key is a valid HMAC key; libcrypto is handed a real pointer to it all the same.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                mac.withUnsafeMutableBufferPointer {
                    HMAC(
                        digest, k.baseAddress, Int32(key.count), m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        m.count, $0.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && Int(length) == expected, "libcrypto's HMAC failed")
        return mac
    }
}
