import Shrink
import ShrinkFuzzSupport

/// Regions and lossless transforms: a rectangle from the parameter bytes (hostile values included) planned
/// against every target, decoded with one of them by `image(_:region:options:)`, then for JPEGs
/// `losslesslyUpright(trim:)` and `losslessCrop(_:)`. A call that accepts a rectangle outside the image (or
/// under 1×1) is a bug, and traps here.
enum CropOrientHarness {
    /// Targets for the region: ordinary ones, and sizes no caller should pass.
    static let targets: [ThumbnailTarget] = [
        .original, .maxPixelSize(64), .maxPixelSize(300), .box(PixelSize(width: 100, height: 40), fit: .cover),
        .box(PixelSize(width: 50, height: 500), fit: .inside), .prescale(2), .maxPixelSize(0), .maxPixelSize(-1),
        .maxPixelSize(Int.max), .box(PixelSize(width: Int.max, height: 1), fit: .cover),
        .box(PixelSize(width: 1, height: Int.min), fit: .inside),
    ]

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let target = input.pick(targets)
        let options = ThumbnailOptions(
            mode: flags & 1 == 0 ? .quality : .fast, allowUpscaling: flags & 2 != 0,
            strict: flags & 4 == 0)
        guard let source = try? ImageSource(bytes: input.image, name: "fuzz", limits: FuzzLimits.image) else { return }
        let region = FuzzRegion.draw(&input, in: source.info.displayedSize)
        let inside = region.isInside(source.info.displayedSize)
        // Plans read the header only: every target, with and without upscaling, against this region.
        for target in targets {
            for upscaling in [false, true] {
                var planned = options
                planned.allowUpscaling = upscaling
                if (try? source.plan(target, region: region, options: planned)) != nil {
                    precondition(inside, "plan(region:) accepted \(region)")
                }
            }
        }
        if let image = try? source.image(target, region: region, options: options) {
            precondition(inside, "image(region:) accepted \(region)")
            precondition(
                image.size == image.plan.outputSize, "result is \(image.size), planned \(image.plan.outputSize)")
        }
        let codec = CodecRegistry.standard.codecs.first { $0.format == source.info.format }
        guard codec?.capabilities.losslessTransforms == true else { return }
        if flags & 8 != 0 {
            _ = try? source.losslesslyUpright(trim: flags & 16 != 0)
        }
        if flags & 32 == 0, (try? source.losslessCrop(region)) != nil {
            precondition(inside, "losslessCrop accepted \(region)")
        }
    }
}
