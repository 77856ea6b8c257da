import Testing
import ShrinkCore
import Shrink
import ShrinkTestSupport

/// HEIC and AVIF deeper than 8 bits: rgba16 results are converted and resampled at the coded precision (not
/// 8-bit values widened), agree with the 8-bit results, and cost what the route predicts.
@Suite(.needsCorpus) struct DeepSampleTests {
    static let high = ThumbnailOptions(pixelFormat: .highPrecision)
    static let rgba8 = ThumbnailOptions(pixelFormat: .exactly(.rgba8))

    /// Samples of `p` (rgba16) that an 8-bit value widened (v × 257) cannot give, among the colour channels.
    static func finerThanEightBits(_ p: PixelBuffer) -> Int {
        p.bytes.withUnsafeBytes { raw in
            (0..<p.size.pixelCount * 4).filter {
                $0 % 4 != 3 && raw.load(fromByteOffset: 2 * $0, as: UInt16.self) % 257 != 0
            }.count
        }
    }

    /// The largest and the mean difference between rgba16 `deep` narrowed to 8 bits and rgba8 `eight`, over
    /// every sample.
    static func narrowedDifference(_ deep: PixelBuffer, _ eight: PixelBuffer) -> (max: Int, mean: Double) {
        let differences = deep.bytes.withUnsafeBytes { raw in
            (0..<eight.bytes.count).map {
                abs((Int(raw.load(fromByteOffset: 2 * $0, as: UInt16.self)) + 128) / 257 - Int(eight.bytes[$0]))
            }
        }
        return (differences.max() ?? 0, Double(differences.reduce(0, +)) / Double(max(1, differences.count)))
    }

    @Test(arguments: [
        ("heic/kingfisher/gradient-10b-srgb-opaque.heic", 10, false),
        ("heic/kingfisher/gradient-10b-srgb-alpha.heic", 10, true),
        ("avif/av1-avif/fox.profile1.10bpc.yuv444.odd-width.odd-height.avif", 10, false),
        ("avif/libavif/weld_sato_12B_8B_q0.avif", 12, false),
        ("avif/av1-avif/fox.profile0.10bpc.yuv420.monochrome.avif", 10, false),
    ])
    func deepImagesStayDeepWhenAsked(file: String, depth: Int, alpha: Bool) throws {
        let source = try ImageSource(path: Corpus.path(file))
        #expect(source.info.bitsPerComponent == depth && source.info.hasAlpha == alpha, "\(file)")
        for size in [48, 0] { // a thumbnail, then the full image
            let deep =
                size == 0
                ? try source.image(options: Self.high) : try source.thumbnail(maxPixelSize: size, options: Self.high)
            #expect(deep.pixels.format == .rgba16, "\(file)")
            #expect(
                Self.finerThanEightBits(deep.pixels) > deep.size.pixelCount / 4,
                "\(file) at \(size): 16-bit values are widened 8-bit ones")
            let eight =
                size == 0
                ? try source.image(options: Self.rgba8) : try source.thumbnail(maxPixelSize: size, options: Self.rgba8)
            #expect(eight.size == deep.size)
            // The 8-bit result rounds each sample to 8 bits before converting and resampling: a level or two apart.
            if eight.size == deep.size {
                let difference = Self.narrowedDifference(deep.pixels, eight.pixels)
                #expect(difference.max <= 3 && difference.mean < 0.5, "\(file) at \(size): \(difference)")
            }
        }
    }
}
