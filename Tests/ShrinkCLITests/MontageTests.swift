import Foundation
import Synchronization
import Testing
import Shrink
import ShrinkTestSupport

/// `shrink montage` end to end, and the disk cache surviving a writer killed with SIGKILL.
@Suite struct MontageTests {
    let cli = CLITests()

    /// A directory of `count` copies of one generated photo, plus the paths.
    func photos(_ count: Int, width: Int = 480, height: Int = 320) throws -> (dir: String, paths: [String]) {
        let dir = NSTemporaryDirectory() + "shrink-montage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let bytes = try TestImages.jpeg(TestImages.pattern(width: width, height: height), quality: 90, chroma444: false)
        let paths = (0..<count).map { dir + "/p\(String(format: "%02d", $0)).jpg" }
        for p in paths { try FileOutput.write(bytes, to: p) }
        return (dir, paths)
    }

    @Test func aFolderWithoutImagesNamesTheFormatsMontageReads() async throws {
        let dir = NSTemporaryDirectory() + "shrink-montage-empty-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let r = try await cli.shrink(["montage", dir, "-o", dir + "/sheet.jpg"])
        #expect(r.status == 1)
        let formats = CodecRegistry.standard.readableFormats.map { $0.name.uppercased() }
        #expect(
            formats.contains("HEIF") && r.err.contains("no images (" + formats.joined(separator: ", ") + ") in " + dir),
            "\(r.err)")
    }

    @Test func sheetLayoutCellsAndABadPhoto() async throws {
        let (dir, paths) = try photos(9)
        try FileOutput.write(Array("not an image".utf8), to: dir + "/p04.jpg") // replaces one photo
        let sheet = dir + "/sheet.jpg"
        let r = try await cli.shrink([
            "montage", dir, "--cell", "64", "--columns", "4", "--gap", "4", "--background", "ff0000",
            "-o", sheet, "--json",
        ])
        #expect(r.status == 1, "a bad photo makes the exit status 1")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 10) // 9 photos + the summary
        #expect(lines.filter { $0.contains("\"error\"") }.count == 1)
        #expect(lines.first { $0.contains("\"error\"") }?.contains("p04.jpg") == true)
        #expect(lines.last?.contains("\"photos\":9") == true && lines.last?.contains("\"failed\":1") == true)
        let image = try await ImageSource(path: sheet).image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
            .pixels
        #expect(image.size == PixelSize(width: 4 * 64 + 5 * 4, height: 3 * 64 + 4 * 4))
        // Cell 0 shows the photo (its top-left is the pattern's yellow block); cell 4 (the bad photo) is background.
        let photoPixel = Array(image.pixel(x: 4 + 8, y: 4 + (64 - 43) / 2 + 4))
        #expect(photoPixel[0] > 200 && photoPixel[1] > 200 && photoPixel[2] < 120)
        let badCell = Array(image.pixel(x: 4 + 32, y: 64 + 8 + 32))
        #expect(badCell[0] > 220 && badCell[1] < 40 && badCell[2] < 40)
        _ = paths
    }

    @Test func helpAndUsageErrors() async throws {
        let help = try await cli.shrink("montage", "--help")
        #expect(help.status == 0 && help.out.contains("--cell") && help.out.contains("--budget"))
        #expect(try await cli.shrink("montage", "x.jpg", "--cell", "2").status == 2)
        let oddCellNoGap = try await cli.shrink("montage", "x.jpg", "--cell", "9", "--gap", "0")
        #expect(oddCellNoGap.status == 2 && oddCellNoGap.err.contains("--cell must be even with --gap 0"))
        #expect(try await cli.shrink("montage", "x.jpg", "-o", "sheet.png").status == 2)
        #expect(try await cli.shrink("montage", "x.jpg", "--budget", "lots").status == 2)
    }

    @Test func aBudgetBelowOneImageFailsEachPhotoClearly() async throws {
        let (dir, _) = try photos(2)
        let r = try await cli.shrink(["montage", dir, "--budget", "1K", "-o", dir + "/s.jpg", "--json"])
        #expect(r.status == 1)
        #expect(r.out.split(separator: "\n").filter { $0.contains("ImagePipeline.Configuration.budget") }.count == 2)
    }

    /// Runs `shrink arguments` and sends it SIGKILL as soon as `cache` holds a name it did not hold when it
    /// started (a new entry, or a temporary file being written), so it dies mid-run however fast or loaded the machine is.
    /// The watching runs on a thread of its own: polled from a task, the kill waited for a free thread of the
    /// cooperative pool, which the suite's CPU-bound tests held until the writer had finished (CI: 0 of 6 killed).
    /// Returns whether SIGKILL ended the run.
    func killedWhenTheCacheGrows(_ arguments: [String], cache: String) async throws -> Bool {
        @Sendable func entries() -> Set<String> {
            Set((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [])
        }
        let result = Mutex<Result<Bool, any Error>?>(nil)
        let finished = Gate()
        let binary = CLITests.binary
        let watcher = Thread {
            defer { finished.open() }
            let before = entries()
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = arguments
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            let ended = DispatchSemaphore(value: 0)
            p.terminationHandler = { _ in ended.signal() }
            do { try p.run() } catch { result.withLock { $0 = .failure(error) }; return }
            let deadline = Date().addingTimeInterval(60)
            while p.isRunning && entries().isSubset(of: before) && Date() < deadline { usleep(200) }
            kill(p.processIdentifier, SIGKILL)
            ended.wait()
            result.withLock { $0 = .success(p.terminationReason == .uncaughtSignal) }
        }
        watcher.start()
        await finished.wait()
        return try result.withLock { $0 }!.get()
    }

    @Test func diskCacheEntriesSurviveWritersKilledWithSIGKILL() async throws {
        let (dir, _) = try photos(24, width: 1600, height: 1200)
        let cache = dir + "/cache", out = dir + "-out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let args = ["montage", dir, "--cell", "400", "--columns", "4", "--cache-dir", cache, "--json"]
        var killed = 0
        for i in 0..<6 where try await killedWhenTheCacheGrows(args + ["-o", out + "/killed-\(i).jpg"], cache: cache) {
            killed += 1
        }
        #expect(killed >= 1, "at least one writer was killed mid-run")
        // Every entry left behind is whole: a full run serves from the cache and draws the same sheet as a
        // run without one.
        let cached = try await cli.shrink(args + ["-o", out + "/cached.jpg"])
        #expect(cached.status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "temporary files of killed writers are removed")
        let plain = try await cli.shrink(["montage", dir, "--cell", "400", "--columns", "4", "-o", out + "/plain.jpg"])
        #expect(plain.status == 0)
        let a = try await ImageSource(path: out + "/cached.jpg").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        ).pixels
        let b = try await ImageSource(path: out + "/plain.jpg").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        ).pixels
        #expect(a.size == b.size)
        if a.size == b.size { #expect(PixelOps.psnr(a, b) > 35) }
        let lines = try await cli.shrink(args + ["-o", out + "/again.jpg"]).out.split(separator: "\n")
        // Prefetched cells reach the visible request through the memory cache, so count the disk's hits.
        #expect(
            lines.filter { $0.contains("\"origin\":\"decoded\"") }.isEmpty, "after a whole run every cell is cached")
        #expect(lines.last?.contains("\"diskCacheHits\":24") == true, "\(lines.last ?? "")")
    }
}
