import Foundation
import Testing
import ShrinkTestSupport

/// Many decodes in one process hold no more than one: a batch of the same HEIC or AVIF photo on one worker
/// peaks where a single thumbnail does. A leaked band, tile or dav1d picture would add megabytes per decode;
/// memory freed but kept by the allocator did (an AVIF batch grew by 36 MiB over 100 decodes until dav1d's
/// freed frames were handed back). The batches run one at a time and are awaited, not waited for on a thread of
/// the cooperative pool: two blocked threads starved the pipeline tests' decodes past their 60 s deadlines.
@Suite(.serialized) struct RepeatedDecodeTests {
    let cli = CLITests()

    /// The peak RSS (MiB) `shrink thumbnail` reports for `count` copies of `file` on one worker.
    func peak(_ file: String, count: Int, dir: String) async throws -> Double {
        let r = try await cli.shrink(
            ["thumbnail"] + Array(repeating: file, count: count) + ["--size", "400", "--jobs", "1", "-o", dir + "/"])
        #expect(r.status == 0, "\(r.err)")
        let text = r.out + r.err
        guard let match = text.firstMatch(of: /peak resident memory of the whole process: ([0-9.]+) (KiB|MiB|GiB)/),
            let value = Double(match.1)
        else {
            Issue.record("no peak in: \(text.suffix(300))")
            return 0
        }
        return value * (match.2 == "KiB" ? 1.0 / 1024 : match.2 == "GiB" ? 1024 : 1)
    }

    @Test(
        .needsCorpus, arguments: ["heic/exif-samples/iphone_13_pro_max.HEIC", "avif/libvips/avif-orientation-6.avif"])
    func aBatchPeaksWhereOneDecodeDoes(_ file: String) async throws {
        let dir = NSTemporaryDirectory() + "shrink-repeat-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = Corpus.path(file)
        let one = try await peak(path, count: 1, dir: dir), many = try await peak(path, count: 12, dir: dir)
        print("\(file): one decode peaks at \(one) MiB, 12 in one process at \(many) MiB")
        #expect(one > 0 && many <= one + 4, "\(file): \(one) MiB for one decode, \(many) MiB for 12")
    }
}
