import ArgumentParser
import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `shrink bench FILE...`: what decoding costs, measured. Each measurement runs in a forked child so its
/// peak resident memory is its own (`wait4`'s `ru_maxrss`), not the accumulation of earlier runs.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure what decoding costs: naive full RGBA8 decode versus Shrink thumbnails in rgba8 and yuv420.",
        discussion: """
            For each file: its size; a naive full-size RGBA8 decode (bytes held, measured peak RSS, time); the same \
            full-size decode to yuv420; Shrink \
            thumbnails at --size in rgba8 and in yuv420 (the same); and the speed of converting the full image from \
            yuv420 to rgba8 on one core. Peaks are whole-process figures of a forked child, so they include the \
            process's baseline (shown as 'idle').

            Examples:
              shrink bench photo.jpg
              shrink bench --size 256 photos/*.jpg
            """
    )

    @Argument(help: "Image files.")
    var files: [String]

    @Option(help: "Long side of the thumbnails.")
    var size: Int = 400

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file") }
        guard size > 0 else { throw ValidationError("--size must be positive") }
    }

    func run() throws {
        let idle = Self.measure { "" }
        print("idle process: peak \(Formatting.bytes(idle.peak))")
        let header = [
            "file", "file bytes", "naive rgba8", "naive peak", "naive ms", "full yuv420", "full yuv peak",
            "rgba8 thumb", "rgba8 peak", "rgba8 ms", "yuv420 thumb", "yuv420 peak", "yuv420 ms", "yuv→rgba Mpx/s",
        ]
        var rows: [[String]] = []
        var failed = false
        for path in files {
            let source: ImageSource
            do {
                source = try ImageSource(path: path)
            } catch {
                Terminal.printError(error.description)
                failed = true
                continue
            }
            let size = self.size
            let naive = Self.measure { Self.decode(source, .original, .rgba8) }
            let full = Self.measure { Self.decode(source, .original, .yuv420) }
            let rgba = Self.measure { Self.decode(source, .maxPixelSize(size), .rgba8) }
            let yuv = Self.measure { Self.decode(source, .maxPixelSize(size), .yuv420) }
            let speed = Self.measure { Self.conversionSpeed(source) }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            // Each decode reports "bufferBytes milliseconds".
            func held(_ r: String) -> String { Int(r.split(separator: " ").first ?? "").map(Formatting.bytes) ?? r }
            func ms(_ r: String) -> String {
                r.split(separator: " ").count == 2 ? String(r.split(separator: " ")[1]) : "-"
            }
            rows.append([
                name, Formatting.bytes(source.fileBytes),
                held(naive.result), Formatting.bytes(naive.peak), ms(naive.result),
                held(full.result), Formatting.bytes(full.peak),
                held(rgba.result), Formatting.bytes(rgba.peak), ms(rgba.result),
                held(yuv.result), Formatting.bytes(yuv.peak), ms(yuv.result), speed.result,
            ])
        }
        let widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(\.count).max() ?? 0 }
        for line in [header] + rows {
            print(
                line.indices.map { i in line[i] + String(repeating: " ", count: widths[i] - line[i].count) }.joined(
                    separator: "  "))
        }
        if failed { throw ExitCode.failure }
    }

    /// Decodes in the child; reports "bufferBytes milliseconds" (or the error).
    static func decode(_ source: ImageSource, _ target: ThumbnailTarget, _ format: PixelFormat) -> String {
        let start = Clock.now()
        do {
            let image = try source.image(target, options: ThumbnailOptions(pixelFormat: .exactly(format)))
            return "\(image.pixels.byteCount) \(Clock.milliseconds(since: start))"
        } catch {
            return "error"
        }
    }

    /// Decodes the full image to yuv420, then converts it to rgba8 three times into one buffer; the best
    /// run's pixels per second (one core, warm buffer).
    static func conversionSpeed(_ source: ImageSource) -> String {
        guard let yuv = try? source.image(options: ThumbnailOptions(pixelFormat: .exactly(.yuv420))) else { return "-" }
        let size = yuv.size
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: PixelFormat.rgba8.byteCount(for: size))
        defer { out.deallocate() }
        var best = Double.infinity
        for _ in 0..<3 {
            let start = Clock.now()
            yuv.pixels.bytes.withUnsafeBytes {
                PixelConverter.convert($0.baseAddress!, from: .yuv420, size: size, into: out, as: .rgba8)
            }
            best = min(best, Clock.seconds(since: start))
        }
        return "\(Int(Double(size.pixelCount) / best / 1e6))"
    }

    /// Runs `work` in a forked child and returns its one-line result and the child's peak RSS in bytes.
    static func measure(_ work: () -> String) -> (result: String, peak: Int) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return ("-", 0) }
        let pid = fork()
        if pid == 0 {
            close(fds[0])
            Terminal.write(work() + "\n", to: fds[1])
            _exit(0)
        }
        close(fds[1])
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            text += buffer[0..<n]
        }
        close(fds[0])
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "-"
        return (line, Int(usage.ru_maxrss) * 1024)
    }
}
