import CShrinkCrypto

/// HMAC (RFC 2104) through the system's libcrypto's one-shot `HMAC` (loaded on first use), for the digests
/// ``HMACSHA256`` and ``HMACSHA1`` name. It keeps no state between calls.
enum LibcryptoHMAC {
    /// The `length`-byte MAC of `message` under `key`, with SHA-1 (`sha1`) or SHA-256.
    static func code(for message: [UInt8], key: [UInt8], sha1: Bool, length expected: Int) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: expected)
        // An empty key is a valid HMAC key; libcrypto is handed a real pointer to it all the same.
        let keyBytes = key.isEmpty ? [0] : key
        let length = keyBytes.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                mac.withUnsafeMutableBufferPointer {
                    cshrink_hmac(sha1 ? 1 : 0, k.baseAddress, key.count, m.baseAddress, m.count, $0.baseAddress)
                }
            }
        }
        guard Int(length) == expected else { CryptoLibrary.failed("HMAC") }
        return mac
    }
}
