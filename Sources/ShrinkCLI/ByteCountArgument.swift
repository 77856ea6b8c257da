import ArgumentParser

/// A byte count on the command line: `1048576`, or with a binary suffix `512K`, `64M`, `2G`.
struct ByteCountArgument: ExpressibleByArgument, Sendable {
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        var text = Substring(argument.uppercased())
        if text.hasSuffix("IB") { text = text.dropLast(2) } else if text.hasSuffix("B") { text = text.dropLast() }
        var shift = 0
        switch text.last {
        case "K": shift = 10
        case "M": shift = 20
        case "G": shift = 30
        default: break
        }
        if shift > 0 { text = text.dropLast() }
        guard let n = Int(text), n > 0, n <= Int.max >> shift else { return nil }
        bytes = n << shift
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// How help shows a default: `256M`, `2G`, or the plain count.
    var defaultValueDescription: String {
        for (shift, suffix) in [(30, "G"), (20, "M"), (10, "K")] where bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(suffix)"
        }
        return String(bytes)
    }
}
