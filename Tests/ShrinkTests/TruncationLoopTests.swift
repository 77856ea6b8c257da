import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// Files truncated by another writer while Shrink reads them (mapped): without the SIGBUS guard in
/// `ImageBytes` every read path died with SIGBUS. Each iteration writes a fresh copy, starts a decode on
/// another thread, truncates the file at a random moment to a random length, and expects an image or a
/// typed error (`.truncated` when the guard caught a missing page), never a crash.
@Suite struct TruncationLoopTests {
    /// One input per read path: libjpeg rows (4:4:4), libjpeg planes (4:2:0), the DC-first and the libjpeg
    /// coefficient paths (progressive), and libspng rows (PNG). Targets that leave the work to the C decoders
    /// (DCT scales, no resampling) keep 300 iterations of the debug build within seconds.
    /// The size each input decodes to when it is read whole: 1200×900 at 1/4 and 1/8 (rounded up), 600×450.
    static let inputs: [(name: String, bytes: [UInt8], target: ThumbnailTarget, size: PixelSize)] = {
        let pixels = TestImages.pattern(width: 1200, height: 900)
        return [
            (
                "rows.jpg", try! TestImages.jpeg(pixels, chroma444: true), .prescale(4),
                PixelSize(width: 300, height: 225)
            ),
            (
                "planes.jpg", try! TestImages.jpeg(pixels, chroma444: false), .prescale(4),
                PixelSize(width: 300, height: 225)
            ),
            (
                "dcfirst.jpg", try! TestImages.jpeg(pixels, chroma444: false, progressive: true), .prescale(8),
                PixelSize(width: 150, height: 113)
            ),
            (
                "coefficients.jpg", try! TestImages.jpeg(pixels, chroma444: false, progressive: true), .prescale(4),
                PixelSize(width: 300, height: 225)
            ),
            (
                "rows.png",
                try! PNGEncoder(options: PNGEncoder.Options(compressionLevel: 1)).encode(
                    TestImages.pattern(width: 600, height: 450)),
                .original, PixelSize(width: 600, height: 450)
            ),
        ]
    }()

    /// Runs the loop on a thread of its own (it blocks for tens of seconds: on Swift's cooperative pool it
    /// would starve the async pipeline tests running beside it) and checks what it saw.
    @Test func truncatingMappedInputsWhileDecodingNeverCrashes() async throws {
        let (outcomes, problems) = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try Self.loop(iterations: 300) }) }.start()
        }
        print("truncation loop: 300 iterations: \(outcomes.sorted { $0.key < $1.key })")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        // Both outcomes happen: truncations late enough to leave the image whole, and truncations the guard caught.
        #expect(outcomes["decoded", default: 0] > 0, "no decode survived its truncation: \(outcomes)")
        #expect(outcomes["caught by the guard", default: 0] > 0, "no truncation happened during a decode: \(outcomes)")
    }

    /// Each iteration's outcome (decoded, caught by the guard, or another error code) and any unexpected error.
    static func loop(iterations: Int) throws -> (outcomes: [String: Int], problems: [String]) {
        let directory = NSTemporaryDirectory() + "shrink-truncation-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rng = SplitMix(seed: 7)
        var outcomes: [String: Int] = [:], problems: [String] = []
        for i in 0..<iterations {
            let input = inputs[i % inputs.count]
            let path = "\(directory)/\(input.name)"
            try Data(input.bytes).write(to: URL(fileURLWithPath: path))
            let keep = Int(rng.next() % UInt64(input.bytes.count))
            let delay = useconds_t(rng.next() % 8_000) // 0–8 ms: header, early rows or late rows
            let truncator = Thread {
                usleep(delay); truncate(path, off_t(keep))
            }
            truncator.start()
            do {
                let image = try ImageSource(path: path).image(input.target)
                if image.size != input.size {
                    problems.append("\(input.name): decoded \(image.size), not \(input.size)")
                }
                outcomes["decoded", default: 0] += 1
            } catch {
                if ![.truncated, .corruptData, .unsupportedFormat, .io].contains(error.code)
                    || !error.description.contains(input.name)
                {
                    problems.append("\(input.name): \(error)")
                }
                outcomes[
                    error.code == .truncated && error.description.contains("while it was being read")
                        ? "caught by the guard" : "\(error.code)", default: 0] += 1
            }
            while !truncator.isFinished { usleep(100) }
        }
        return (outcomes, problems)
    }
}
