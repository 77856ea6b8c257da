import CShrinkCrypto

/// SHA-256 through the system's libcrypto (OpenSSL's `EVP_Digest`, loaded on first use): cache keys, ETags,
/// validators and content identities. One pass over the bytes, no copy when they are contiguous.
package enum SHA256 {
    /// The 32-byte digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { hash($0) }
    }

    /// The 32-byte digest of the bytes in `raw`.
    package static func hash(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let ok = digest.withUnsafeMutableBufferPointer { cshrink_sha256(raw.baseAddress, raw.count, $0.baseAddress) }
        guard ok == 1 else { CryptoLibrary.failed("SHA-256") }
        return digest
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String { hexDigits(hash(bytes)) }

    /// The digest of `string`'s UTF-8 bytes as 64 lowercase hex digits.
    package static func hex(_ string: String) -> String { hex(Array(string.utf8)) }

    /// `bytes` as lowercase hex digits, two a byte.
    package static func hexDigits(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
