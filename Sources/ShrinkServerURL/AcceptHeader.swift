/// An HTTP `Accept` header taken apart (RFC 9110 §12.5.1): media ranges with their `q` weights, for choosing the
/// output format of a URL that names none. Parsing is forgiving, as browsers' headers are: a malformed range or
/// weight is skipped, not an error; at most 64 ranges are read.
package struct AcceptHeader: Sendable, Equatable {
    /// One media range: `type/subtype` (either may be `*`) in lower case, and its weight 0–1.
    package struct Range: Sendable, Equatable {
        package var type: String
        package var subtype: String
        package var weight: Double
    }

    /// The ranges in header order.
    package let ranges: [Range]

    /// The ranges of `header` (`image/avif,image/webp,image/*;q=0.8,*/*;q=0.5`).
    package init(_ header: String) {
        var ranges: [Range] = []
        for element in header.split(separator: ",", omittingEmptySubsequences: true).prefix(64) {
            let parts = element.split(separator: ";").map { $0.trimmed.lowercased() }
            let type = parts.first ?? ""
            let halves = type.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty, halves[0] != "*" || halves[1] == "*"
            else { continue }
            var weight = 1.0
            var valid = true
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                // A weight is 0–1 with at most three decimals; anything else makes the range unreadable.
                let value = parameter.dropFirst(2)
                if value.count <= 5, let w = Double(value), (0...1).contains(w) { weight = w } else { valid = false }
            }
            if valid { ranges.append(Range(type: String(halves[0]), subtype: String(halves[1]), weight: weight)) }
        }
        self.ranges = ranges
    }

    /// The weight the header gives `mimeType` (`image/avif`): the most specific range that matches it (the exact
    /// type, then `image/*`, then `*/*`); 1 when the header has no ranges (no header accepts anything), 0 when
    /// nothing matches.
    package func weight(of mimeType: String) -> Double {
        guard !ranges.isEmpty else { return 1 }
        let halves = mimeType.lowercased().split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return 0 }
        var best: (specificity: Int, weight: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == halves[0] && range.subtype == halves[1] {
                specificity = 2
            } else if range.type == halves[0] && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" {
                specificity = 0
            } else {
                continue
            }
            if best == nil || specificity > best!.specificity { best = (specificity, range.weight) }
        }
        return best?.weight ?? 0
    }

    /// True when the header names `mimeType` itself with a weight above 0. A wildcard does not count: clients that
    /// cannot decode AVIF or WebP send `*/*` and `image/*` too, so only a type named outright opts into it (as
    /// browsers that decode them do, and as imgproxy reads it).
    package func names(_ mimeType: String) -> Bool {
        let halves = mimeType.lowercased().split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return false }
        return ranges.contains { $0.type == halves[0] && $0.subtype == halves[1] } && weight(of: mimeType) > 0
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
