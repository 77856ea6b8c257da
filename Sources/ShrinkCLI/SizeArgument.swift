import ArgumentParser
import Shrink

/// `--size N` (long side) or `--size WxH` (a box).
struct SizeArgument: ExpressibleByArgument, Sendable {
    let long: Int?
    let box: PixelSize?

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let n = Int(parts[0]), n > 0 else { return nil }
            long = n
            box = nil
        case 2:
            guard let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
            long = nil
            box = PixelSize(width: w, height: h)
        default:
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }

    func target(fit: ThumbnailTarget.Fit) -> ThumbnailTarget {
        if let box { return .box(box, fit: fit) }
        return .maxPixelSize(long ?? 1)
    }
}

extension ThumbnailTarget.Fit: ExpressibleByArgument {}
extension ThumbnailOptions.Mode: ExpressibleByArgument {}
extension PNGEncoder.Filters: ExpressibleByArgument {}

/// `--pixel-format auto|display|FORMAT`; `auto` is nil: the command picks what the output encoder takes.
struct PixelFormatArgument: ExpressibleByArgument, Sendable {
    let request: PixelFormatRequest?

    init?(argument: String) {
        switch argument {
        case "auto": request = nil
        case "display": request = .displayReady
        case "high": request = .highPrecision
        default:
            guard let format = PixelFormat(rawValue: argument) else { return nil }
            request = .exactly(format)
        }
    }

    static var allValueStrings: [String] { ["auto", "display", "high"] + PixelFormat.allCases.map(\.rawValue) }

    /// How help shows a default: the word given on the command line.
    var defaultValueDescription: String {
        switch request {
        case nil: "auto"
        case .displayReady?: "display"
        case .highPrecision?: "high"
        case .exactly(let format)?: format.rawValue
        default: "auto"
        }
    }
}
