import Foundation
import Shrink

/// The `Content-Disposition` header of an image response, as imgproxy sends it: `inline` (or `attachment` for
/// `att:1`) with a filename — the URL's `fn`, else the source's last path segment without its extension — ending in
/// the result's extension. A name of printable ASCII goes in quotes (`"` and `\` escaped); any other gets an ASCII
/// fallback and an RFC 6266 `filename*` in UTF-8.
package enum ContentDisposition {
    /// The header value for a result in `format` of `source`, named `filename` when the URL gave one.
    package static func header(filename: String?, source: String, format: ImageFormat, attachment: Bool) -> String {
        let name = (filename?.isEmpty == false ? filename! : stem(of: source)) + "." + format.fileExtension
        let kind = attachment ? "attachment" : "inline"
        let printable = name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        let quoted = String(
            name.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "_" }
        ).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        guard !printable else { return "\(kind); filename=\"\(quoted)\"" }
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let encoded = name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? quoted
        return "\(kind); filename=\"\(quoted)\"; filename*=UTF-8''\(encoded)"
    }

    /// The last path segment of `source` (query and fragment dropped) without its extension; `image` when there is
    /// none.
    static func stem(of source: String) -> String {
        var path = Substring(source)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        let last = path.split(separator: "/").last ?? ""
        let stem = last.lastIndex(of: ".").map { last[..<$0] } ?? last
        return stem.isEmpty || last.hasSuffix(":") ? "image" : String(stem)
    }
}
