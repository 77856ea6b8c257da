/// JSON text made by hand where a whole encoder is not needed: the CLI's `--json` lines, the server's and the
/// gallery's small JSON answers and the data the gallery's pages embed.
package enum JSONText {
    /// A JSON string literal of `text`, quotes included: `"` and `\` escaped, control characters as `\n`, `\r`,
    /// `\t` or `\u00XX`. With `forHTML`, also `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`, so the literal can
    /// stand inside an HTML page's script or attribute and never close it.
    package static func quoted(_ text: some StringProtocol, forHTML: Bool = false) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || forHTML && htmlSensitive.contains(scalar): out += escaped(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static let htmlSensitive: Set<Unicode.Scalar> = ["<", ">", "&", "\u{2028}", "\u{2029}"]

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
