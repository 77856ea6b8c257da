import CShrinkCrypto

/// HMAC-SHA256 (RFC 2104) through the system's libcrypto (OpenSSL's one-shot `HMAC`): what URL signatures and
/// the gallery's session cookie are made of. Checked against RFC 4231's test vectors and imgproxy's signatures.
package enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // An empty key is a valid HMAC key; libcrypto is handed a real pointer to it all the same.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                mac.withUnsafeMutableBufferPointer {
                    HMAC(
                        EVP_sha256(), k.baseAddress, Int32(key.count),
                        m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        m.count, $0.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "libcrypto's HMAC-SHA256 failed")
        return mac
    }
}
