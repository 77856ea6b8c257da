import Foundation

/// Builds the part of a server URL that is signed: `/OPTIONS/plain/SOURCE@EXT` (the source percent-encoded
/// where a path needs it) or `/OPTIONS/BASE64URL.EXT`.
package enum SignedPath {
    package static func path(options: String, source: String, ext: String?, base64: Bool) -> String {
        let prefix = options.isEmpty ? "" : "/" + options.trimmingCharacters(in: ["/"])
        if base64 {
            return prefix + "/" + SigningKeys.base64url(Array(source.utf8)) + (ext.map { "." + $0 } ?? "")
        }
        return prefix + "/plain/" + escape(source) + (ext.map { "@" + $0 } ?? "")
    }

    /// Percent-encodes what cannot stand in a path segment sequence (`%`, `?`, `#`, `@`, spaces and controls,
    /// non-ASCII) and what a browser would encode or rewrite before sending (`"`, `<`, `>`, `` ` ``, `{`, `}`,
    /// `|`, `^`, and `\`, which it turns into `/`): the signed path must be the bytes that arrive.
    static func escape(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), 0...0x20, 0x7F...0xFF,
                UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "{"),
                UInt8(ascii: "}"),
                UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "\\"):
                out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
            default:
                out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return out
    }
}
