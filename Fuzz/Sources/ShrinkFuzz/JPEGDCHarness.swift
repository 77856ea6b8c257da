@_spi(Fuzzing) import Shrink
import ShrinkFuzzSupport

/// Shrink's own 1/8 JPEG decoders: the DC-first decoder of progressive files (no coefficient buffer) and the
/// DC-only decoder of sequential ones (AC codes skipped). The whole input is the JPEG (up to 16 MP), decoded at
/// `.prescale(8)` strictly and leniently, to YUV planes (the DC-only route) and to RGBA, and as small
/// thumbnails that plan a 1/8 decode.
enum JPEGDCHarness {
    static let requests: [(ThumbnailTarget, ThumbnailOptions)] = [
        (.prescale(8), ThumbnailOptions(strict: true)),
        (.prescale(8), ThumbnailOptions(strict: false, pixelFormat: .exactly(.yuv420))),
        (.prescale(8), ThumbnailOptions(strict: false, pixelFormat: .exactly(.rgba8))),
        (.maxPixelSize(16), ThumbnailOptions(mode: .fast)),
        (.box(PixelSize(width: 24, height: 24), fit: .cover), ThumbnailOptions(strict: false)),
    ]

    static func fuzz(_ bytes: [UInt8]) {
        guard bytes.starts(with: [0xFF, 0xD8]),
            let source = try? ImageSource(bytes: bytes, name: "fuzz.jpg", limits: FuzzLimits.progressive)
        else { return }
        for (target, options) in requests {
            guard let image = try? source.image(target, options: options) else { continue }
            SourceFuzzing.checkRoute(of: image, from: source, options: options)
        }
    }
}
