import CShrinkCrypto

/// HMAC-SHA1 (RFC 2104) through the system's libcrypto (OpenSSL's one-shot `HMAC`): what thumbor's URL signatures
/// are made of (its `SECURITY_KEY`). Checked against RFC 2202's test vectors and libthumbor's signatures.
package enum HMACSHA1 {
    /// The 20-byte MAC of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                mac.withUnsafeMutableBufferPointer {
                    HMAC(
                        EVP_sha1(), k.baseAddress, Int32(key.count),
                        m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        m.count, $0.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 20, "libcrypto's HMAC-SHA1 failed")
        return mac
    }
}
