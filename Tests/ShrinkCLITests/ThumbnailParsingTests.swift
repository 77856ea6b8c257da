import ArgumentParser
import Testing
@testable import ShrinkCLI

/// `shrink thumbnail`'s own argument parser (``ThumbnailJob/fastParse(_:)``) against ArgumentParser's: where
/// the fast one accepts arguments, every setting of the job must come out the same; where it declines,
/// ArgumentParser decides (and writes the errors).
@Suite struct ThumbnailParsingTests {
    /// Every stored property of a job, as text.
    static func properties(_ job: ThumbnailJob) -> [String] {
        Mirror(reflecting: job).children.map { "\($0.label ?? "?") = \(String(describing: $0.value))" }
    }

    static let accepted: [[String]] = [
        ["photo.jpg"],
        ["photo.jpg", "--size", "400", "-o", "thumb.jpg"],
        ["a.jpg", "b.png", "--size=300x200", "--fit", "cover", "-o", "out/", "--jobs", "2", "--json"],
        [
            "photo.jpg", "--prescale", "1/8", "-o", "eighth.png", "--png-filter", "adaptive", "--compression", "9",
            "--depth", "16",
        ],
        [
            "-", "--size", "256", "--mode", "fast", "--no-embedded-thumbnail", "--quality", "70", "--subsampling",
            "444",
            "--progressive", "--optimize-coding", "--keep-exif", "--strip-icc", "--upscale", "--strict", "--max-pixels",
            "1000000",
            "--max-input-bytes", "5000000", "--max-scans", "20", "--memory-budget", "1000000", "--colour", "keep",
        ],
        [
            "x.heic", "--format", "webp", "--lossless", "--embedded-thumbnail", "--pixel-format", "rgba16", "--color",
            "display-p3",
        ],
        ["y.jpg", "--max-working-bytes", "2000000", "--size", "64", "--frames", "first"],
        ["z.jpg", "--max-input-bytes", "20M", "--max-working-bytes", "512K"],
        ["g.jpg", "--size", "90x60", "--fit", "fill", "--gravity", "attention"],
        ["h.jpg", "--size", "90x60", "--fit", "stretch", "--gravity", "0.25,0.75"],
    ]

    @Test(arguments: accepted)
    func fastParseAgreesWithArgumentParser(_ arguments: [String]) throws {
        let fast = try #require(ThumbnailJob.fastParse(arguments), "the fast parser declined \(arguments)")
        let reference = try ThumbnailCommand.parse(arguments).job
        #expect(Self.properties(fast) == Self.properties(reference))
        #expect(Self.properties(fast).count == 26)
    }

    /// With no options both parsers give ``ThumbnailJob/defaults``, which ``ThumbnailCommand`` declares as its
    /// options' defaults.
    @Test func defaultsAreTheDeclaredOnes() throws {
        var expected = ThumbnailJob.defaults
        expected.inputs = ["photo.jpg"]
        #expect(Self.properties(try ThumbnailCommand.parse(["photo.jpg"]).job) == Self.properties(expected))
        // Every documented default, as a literal (the declarations above read ThumbnailJob.defaults, so a
        // wrong default there would pass the comparison).
        let d = ThumbnailJob.defaults
        #expect(
            d.quality == 85 && d.subsampling == 420 && d.compression == 6 && d.pngFilter == .none && d.format == "jpg")
        #expect(d.mode == .quality && d.fit == .inside && d.color == .sRGB && d.pixelFormat.request == nil)
        #expect(
            !d.progressive && !d.optimizeCoding && !d.lossless && !d.keepExif && !d.stripIcc && !d.upscale && !d.json)
        #expect(
            d.size == nil && d.prescale == nil && d.depth == nil && d.jobs == nil && d.output == nil
                && d.embeddedThumbnail == nil)
        #expect(
            d.decoding.maxPixels == 0x3FFF * 0x3FFF && d.decoding.maxInputBytes == 1 << 30 && d.decoding.maxScans == 500
                && d.decoding.maxWorkingBytes == 1 << 30 && !d.decoding.strict)
        #expect(try ThumbnailJob.fastParse(["a.jpg", "--memory-budget", "7"])?.decoding.maxWorkingBytes == 7)
    }

    /// Unknown, repeated or malformed options, `--`, and arguments `validate()` refuses go to ArgumentParser.
    @Test(arguments: [
        ["photo.jpg", "--size"], ["photo.jpg", "--size", "0"], ["photo.jpg", "--size", "400", "--size", "300"],
        ["photo.jpg", "--quality", "0"], ["photo.jpg", "--bogus"], ["--", "-weird.jpg"], ["photo.jpg", "-vo", "x.jpg"],
        ["photo.jpg", "--json=yes"], [], ["a.jpg", "b.jpg", "-o", "one.jpg"], ["photo.jpg", "--fit", "squash"],
    ])
    func fastParseDeclinesWhatItDoesNotKnow(_ arguments: [String]) {
        #expect(ThumbnailJob.fastParse(arguments) == nil)
    }
}
