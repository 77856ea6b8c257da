import Shrink
import ShrinkFuzzSupport

/// The DC-first decoder of progressive JPEGs (1/8 scale, no coefficient buffer): the whole input is the
/// JPEG (up to 16 MP), decoded at `.prescale(8)` strictly and leniently, and as small thumbnails that plan a
/// 1/8 decode.
enum ProgressiveDCHarness {
    static let requests: [(ThumbnailTarget, ThumbnailOptions)] = [
        (.prescale(8), ThumbnailOptions(strict: true)),
        (.prescale(8), ThumbnailOptions(strict: false, pixelFormat: .exactly(.rgba8))),
        (.maxPixelSize(16), ThumbnailOptions(mode: .fast)),
        (.box(PixelSize(width: 24, height: 24), fit: .cover), ThumbnailOptions(strict: false)),
    ]

    static func fuzz(_ bytes: [UInt8]) {
        guard bytes.starts(with: [0xFF, 0xD8]),
              let source = try? ImageSource(bytes: bytes, name: "fuzz.jpg", limits: FuzzLimits.progressive),
              source.info.isProgressive else { return }
        for (target, options) in requests {
            guard let image = try? source.image(target, options: options) else { continue }
            precondition(image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        }
    }
}
