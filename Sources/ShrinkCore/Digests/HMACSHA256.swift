/// HMAC-SHA256 (RFC 2104) through the system's libcrypto (OpenSSL's one-shot `HMAC`): what URL signatures and
/// the gallery's session cookie are made of. Checked against RFC 4231's test vectors and imgproxy's signatures.
package enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        LibcryptoHMAC.code(for: message, key: key, sha1: false, length: 32)
    }
}
