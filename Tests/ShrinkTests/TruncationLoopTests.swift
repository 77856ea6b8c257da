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
    /// (DCT scales, no resampling) keep 520 iterations of the debug build within seconds.
    static let inputs: [(name: String, bytes: [UInt8], target: ThumbnailTarget)] = {
        let pixels = TestImages.pattern(width: 1200, height: 900)
        return [
            ("rows.jpg", try! TestImages.jpeg(pixels, chroma444: true), .prescale(4)),
            ("planes.jpg", try! TestImages.jpeg(pixels, chroma444: false), .prescale(4)),
            ("dcfirst.jpg", try! TestImages.jpeg(pixels, chroma444: false, progressive: true), .prescale(8)),
            ("coefficients.jpg", try! TestImages.jpeg(pixels, chroma444: false, progressive: true), .prescale(4)),
            ("rows.png", try! EncodedFormat.png(PNGEncoder.Options(compressionLevel: 1)).encode(TestImages.pattern(width: 600, height: 450)),
             .original),
        ]
    }()

    @Test func truncatingMappedInputsWhileDecodingNeverCrashes() throws {
        let directory = NSTemporaryDirectory() + "shrink-truncation-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rng = SplitMix(seed: 7)
        var outcomes: [String: Int] = [:]
        let iterations = 520
        for i in 0..<iterations {
            let input = Self.inputs[i % Self.inputs.count]
            let path = "\(directory)/\(input.name)"
            try Data(input.bytes).write(to: URL(fileURLWithPath: path))
            let keep = Int(rng.next() % UInt64(input.bytes.count))
            let delay = useconds_t(rng.next() % 8_000)                  // 0–8 ms: header, early rows or late rows
            let truncator = Thread { usleep(delay); truncate(path, off_t(keep)) }
            truncator.start()
            do {
                let image = try ImageSource(path: path).image(input.target)
                #expect(image.size.width > 0)
                outcomes["decoded", default: 0] += 1
            } catch {
                #expect([.truncated, .corruptData, .unsupportedFormat, .io].contains(error.code), "\(input.name): \(error)")
                #expect(error.description.contains(input.name))
                outcomes[error.code == .truncated && error.description.contains("while it was being read")
                         ? "caught by the guard" : "\(error.code)", default: 0] += 1
            }
            while !truncator.isFinished { usleep(100) }
        }
        print("truncation loop: \(iterations) iterations: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes.values.reduce(0, +) == iterations)
        #expect(outcomes["caught by the guard", default: 0] > 0, "no truncation happened during a decode: \(outcomes)")
    }
}
