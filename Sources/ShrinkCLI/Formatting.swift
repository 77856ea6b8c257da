import Shrink

/// Human-readable byte counts and one-line descriptions shared by the commands.
enum Formatting {
    /// `1536` → `"1.5 KiB"`, `96_000_000` → `"91.6 MiB"`.
    static func bytes(_ n: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(n), unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(n) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// The decoded byte cost of the full displayed image in each pixel format, as a JSON object.
    static func decodedBytesJSON(_ info: ImageInfo) -> JSONLine {
        var costs = JSONLine()
        for format in PixelFormat.allCases { costs.add(format.rawValue, info.decodedBytes(as: format)) }
        return costs
    }
}
