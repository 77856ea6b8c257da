import Foundation

/// Entity tags in conditional requests.
package enum EntityTag {
    /// `If-None-Match` against `etag`: `*`, or a comma-separated list of entity tags (weak ones compared weakly,
    /// as RFC 9110 asks for this header). Linear in the header's length.
    package static func matches(_ header: String, _ etag: String) -> Bool {
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { tag in
            var t = tag.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("W/") { t = String(t.dropFirst(2)) }
            return t == etag
        }
    }
}
