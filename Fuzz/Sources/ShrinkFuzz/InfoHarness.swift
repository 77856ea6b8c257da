@_spi(Fuzzing) import Shrink
import ShrinkFuzzSupport

/// `ImageSource(bytes:name:limits:)` on the whole input (a header parse, no pixels), then everything the
/// header tells: the info fields, costs per pixel format, the ICC profile and EXIF block, and plans.
enum InfoHarness {
    static func fuzz(_ bytes: [UInt8]) {
        guard let source = try? ImageSource(bytes: bytes, name: "fuzz", limits: FuzzLimits.image) else { return }
        let info = source.info
        _ = (
            info.format, info.colorModel, info.bitsPerComponent, info.hasAlpha, info.isProgressive,
            info.chromaSubsampling, info.iccProfileBytes, info.exifBytes, info.embeddedThumbnail, info.features
        )
        _ = info.displayedSize.description
        for format in PixelFormat.allCases { _ = info.decodedBytes(as: format) }
        SourceFuzzing.inspect(source)
        for target in [
            ThumbnailTarget.maxPixelSize(256), .prescale(8), .box(PixelSize(width: 64, height: 64), fit: .cover),
        ] {
            guard let plan = try? source.plan(target) else { continue }
            _ = source.predictedPeakBytes(for: plan, options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        }
    }
}
