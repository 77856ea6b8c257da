/// HMAC-SHA1 (RFC 2104) through the system's libcrypto (OpenSSL's one-shot `HMAC`): what thumbor's URL signatures
/// are made of (its `SECURITY_KEY`). Checked against RFC 2202's test vectors and libthumbor's signatures.
package enum HMACSHA1 {
    /// The 20-byte MAC of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        LibcryptoHMAC.code(for: message, key: key, sha1: true, length: 20)
    }
}
