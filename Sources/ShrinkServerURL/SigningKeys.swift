import Foundation
import Shrink

/// The key/salt pairs URLs are signed with, imgproxy's scheme: the signature is the URL-safe Base64 (no
/// padding) of HMAC-SHA256(key, salt ‖ path), `path` being everything after the signature, leading `/`
/// included; optionally truncated to its first ``signatureBytes`` bytes. Several pairs may be configured
/// for rotation: a signature made with any of them is accepted. Comparison is constant-time.
package struct SigningKeys: Sendable {
    /// The pairs, in configuration order; empty when signing is off.
    package let pairs: [(key: [UInt8], salt: [UInt8])]
    /// Bytes of the HMAC kept in signatures (1…32). `32` by default.
    package let signatureBytes: Int

    /// Signing off: any signature is accepted (`insecure`, `unsafe`, `_`…; see ``verify(_:path:)``).
    package static let none = SigningKeys(pairs: [], signatureBytes: 32)

    package init(pairs: [(key: [UInt8], salt: [UInt8])], signatureBytes: Int = 32) {
        self.pairs = pairs
        self.signatureBytes = min(32, max(1, signatureBytes))
    }

    /// Pairs from hex lists (`SHRINK_KEY` and `SHRINK_SALT`: hex, comma-separated, as many salts as keys).
    /// Both empty means signing off. Fails with a message naming what is wrong.
    package init(hexKeys: String, hexSalts: String, signatureBytes: Int = 32) throws(ConfigurationError) {
        let keys = hexKeys.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let salts = hexSalts.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard keys.count == salts.count else {
            throw ConfigurationError(
                "SHRINK_KEY has \(keys.count) key(s) but SHRINK_SALT has \(salts.count) salt(s): give one salt per key")
        }
        var pairs: [(key: [UInt8], salt: [UInt8])] = []
        for (i, (k, s)) in zip(keys, salts).enumerated() {
            guard let key = Self.bytes(hex: k), !key.isEmpty else {
                throw ConfigurationError("SHRINK_KEY #\(i + 1) is not hex")
            }
            guard let salt = Self.bytes(hex: s) else { throw ConfigurationError("SHRINK_SALT #\(i + 1) is not hex") }
            pairs.append((key, salt))
        }
        self.init(pairs: pairs, signatureBytes: signatureBytes)
    }

    /// True when URLs must be signed.
    package var isEnabled: Bool { !pairs.isEmpty }

    /// The signature of `path` with the first pair (what `shrink sign` prints).
    package func sign(_ path: String) -> String {
        guard let first = pairs.first else { return "insecure" }
        return Self.base64url(mac(path, key: first.key, salt: first.salt))
    }

    /// True when `signature` signs `path` with any pair. With signing off, any signature is accepted, as imgproxy
    /// accepts it: the placeholders clients send (`insecure`, imgproxy's docs; `unsafe`, django-imgproxy's; `_`,
    /// pyimgproxy's) and real signatures alike. With keys, the placeholders are signatures that do not verify.
    package func verify(_ signature: Substring, path: Substring) -> Bool {
        guard isEnabled else { return true }
        guard let given = Self.canonicalBase64url(signature), given.count == signatureBytes else { return false }
        var ok = false
        for pair in pairs {
            // Every pair is tried, whatever matched, so timing does not tell which pair signed.
            if Self.constantTimeEqual(given, mac(String(path), key: pair.key, salt: pair.salt)) { ok = true }
        }
        return ok
    }

    private func mac(_ path: String, key: [UInt8], salt: [UInt8]) -> [UInt8] {
        let message = salt + (path.hasPrefix("/") ? [] : [UInt8(ascii: "/")]) + Array(path.utf8)
        return Array(HMACSHA256.authenticationCode(for: message, key: key).prefix(signatureBytes))
    }

    /// Equal bytes, compared in time that depends only on the lengths.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var d: UInt8 = 0
        for i in 0..<a.count { d |= a[i] ^ b[i] }
        return d == 0
    }

    package static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text` when it is written exactly as ``base64url(_:)`` writes them (URL-safe alphabet, no
    /// padding, unused bits zero), else nil: a signature has one spelling, so that no other spelling of a valid one
    /// is another URL (another CDN miss) for the same image.
    package static func canonicalBase64url(_ text: Substring) -> [UInt8]? {
        guard let bytes = decodeBase64url(text), base64url(bytes) == text else { return nil }
        return bytes
    }

    /// URL-safe Base64 without padding (standard alphabet and padding accepted too); nil when malformed.
    package static func decodeBase64url(_ text: Substring) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        s = s.replacingOccurrences(of: "=", with: "")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map(Array.init)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let hi = nibble(digits[i]), let lo = nibble(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
