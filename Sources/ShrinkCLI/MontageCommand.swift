import ArgumentParser
import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `shrink montage INPUT... | DIR --cell 256 [--columns N] [-o sheet.jpg] [--budget BYTES] [--json]`.
struct MontageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "montage",
        abstract: "Make a contact sheet of many photos, in memory that does not grow with their number.",
        discussion: """
            Each photo becomes a thumbnail fitted inside a square cell, decoded through the image pipeline: on \
            at most --jobs threads, each decode admitted only when its predicted peak bytes fit the --budget, \
            the next rows prefetched at low priority while the current row is decoded. The sheet is written \
            one row of cells at a time, so only one band of it is ever in memory. Directories given as \
            inputs contribute their images (by extension, or by content for other names), sorted by name. A photo that cannot be decoded \
            leaves its cell empty; the sheet is still written and the exit status is 1.

            Examples:
              shrink montage photos/ -o sheet.jpg
              shrink montage a.jpg b.jpg c.png --cell 128 --columns 3 -o small.jpg
              shrink montage photos/ --budget 64M --json > telemetry.jsonl
            """
    )

    @Argument(help: "Photos, or directories of photos.")
    var inputs: [String]

    @OptionGroup(title: "Colour")
    var colorArguments: ColorArguments

    @Option(help: "Cell side in pixels; each photo is fitted inside it.")
    var cell: Int = 256

    @Option(help: "Cells per row.")
    var columns: Int = 8

    @Option(help: "Pixels between cells and around the edge.")
    var gap: Int = 4

    @Option(help: "Background colour as RRGGBB hex.")
    var background: String = "202020"

    @Option(name: .shortAndLong, help: ArgumentHelp("The sheet (\(OutputExtensions.sheetList))."))
    var output: String = "montage.jpg"

    @Option(help: "Quality of the sheet, 1-100.")
    var quality: Int = 85

    @Option(help: "quality: leave at least 2x to the Lanczos resampler; fast: prescale to the nearest size.")
    var mode: ThumbnailOptions.Mode = .quality

    @Option(
        help:
            "Bytes the pipeline may hold for images: running decodes, each charged its predicted peak, plus prefetched cells waiting in the memory cache (e.g. 64M; default: a quarter of the memory limit, at most 2G, for decodes, the cache apart)."
    )
    var budget: ByteCountArgument?

    @Option(help: "Decodes running at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Rows of cells prefetched ahead of the row being written.")
    var prefetchRows: Int = 1

    @Option(help: "Keep encoded cell thumbnails in this directory and reuse them on later runs.")
    var cacheDir: String?

    @Option(help: "Size limit of --cache-dir (e.g. 256M); least recently used entries are evicted.")
    var cacheSize: ByteCountArgument = ByteCountArgument(bytes: 256 << 20)

    @Flag(
        help:
            "One JSON line per photo (input, index, width, height, origin, coalesced, prescale, fallback (the cheaper plan run when the requested one does not fit --budget, or null), path, pixelFormat, bytesRead, bufferBytes, predictedPeakBytes, measuredPeakBytes, queueWaitMs, decodeMs, or error), then a summary line (output, width, height, photos, failed, milliseconds, budget, peakRunningCharge, peakRunningDecodes, decodesStarted, coalescedRequests, memoryCacheHits, diskCacheHits, diskCacheMisses, maxThreads, rssBaselineBytes, peakRssBytes)."
    )
    var json = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one photo or directory") }
        guard (8...4096).contains(cell) else { throw ValidationError("--cell must be 8-4096") }
        guard (1...256).contains(columns) else { throw ValidationError("--columns must be 1-256") }
        guard (0...256).contains(gap) else { throw ValidationError("--gap must be 0-256") }
        guard gap > 0 || cell % 2 == 0 else {
            throw ValidationError(
                "--cell must be even with --gap 0 (the sheet's 4:2:0 chroma pairs rows, so rows of cells start on even rows)"
            )
        }
        guard Self.color(background) != nil else {
            throw ValidationError("--background must be RRGGBB hex, like 202020")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1-100") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        guard (0...16).contains(prefetchRows) else { throw ValidationError("--prefetch-rows must be 0-16") }
        guard Self.sheetFormat(of: output) != nil else {
            throw ValidationError("-o must name a file of a format written band by band: \(OutputExtensions.sheetList)")
        }
    }

    /// The format `path` names when the registry writes it band by band (what the sheet is written in).
    static func sheetFormat(of path: String) -> ImageFormat? {
        CodecRegistry.standard.writableFormat(forPath: path).flatMap {
            CodecRegistry.standard.bandWritableFormats.contains($0) ? $0 : nil
        }
    }

    func run() throws {
        let command = self
        try AsyncBridge.run { try await command.render() }
    }

    /// The montage itself, in Swift concurrency (the pipeline is async).
    private func render() async throws {
        let start = Clock.now()
        // A directory without photos adds no cell (and none at all is an error below).
        let photos = InputFiles.expand(inputs).filter { !FileOutput.isDirectory($0) }
        guard !photos.isEmpty else {
            Terminal.printError(
                "no images (\(CodecRegistry.standard.readableFormats.map { $0.name.uppercased() }.joined(separator: ", "))) in \(inputs.joined(separator: " "))"
            )
            throw ExitCode.failure
        }
        let layout = ContactSheet.Layout(cell: cell, columns: columns, gap: gap, background: Self.color(background)!)
        let sheet = ContactSheet(
            layout: layout, options: ThumbnailOptions(mode: mode, color: colorArguments.color),
            encoder: Self.sheetFormat(of: output).flatMap {
                CodecRegistry.standard.writer(for: $0)?.streamingEncoder(
                    for: OutputSettings(format: $0, quality: quality))
            }!, rowsAhead: prefetchRows)
        var diskCache: DiskCache?
        if let cacheDir {
            do {
                diskCache = try DiskCache(directory: cacheDir, sizeLimit: cacheSize.bytes)
            } catch {
                Terminal.printError(error.description)
                throw ExitCode.failure
            }
        }
        let pipeline = ImagePipeline(
            configuration: ImagePipeline.Configuration(
                budget: budget?.bytes, maxConcurrentDecodes: jobs, memoryCache: sheet.memoryCacheConfiguration(),
                diskCache: diskCache, measuresMemory: json))
        let baseline = ProcessStatus.read()
        let terminal = Terminal(total: photos.count, progress: true)
        var maxThreads = baseline.threads
        var failed = 0
        let json = json
        let summary: ContactSheet.Summary
        do {
            summary = try await sheet.render(photos, to: output, pipeline: pipeline) { cell in
                // A read of /proc per photo for --json, per row of cells otherwise.
                if json || cell.index % layout.columns == 0 {
                    maxThreads = max(maxThreads, ProcessStatus.read().threads)
                }
                var line = JSONLine()
                line.add("input", cell.path)
                line.add("index", cell.index)
                switch cell.result {
                case .success(let (size, t)):
                    guard json else { break }
                    line.add("width", size.width)
                    line.add("height", size.height)
                    line.add("origin", t.origin.rawValue)
                    line.add("coalesced", t.coalesced)
                    line.add("prescale", "1/\(t.prescale)")
                    line.add("fallback", t.fallback)
                    line.add("path", t.decodePath?.name)
                    line.add("decoder", t.decoder)
                    line.add("pixelFormat", t.pixelFormat?.rawValue)
                    line.add("color", t.colorConversion?.summary)
                    line.add("bytesRead", t.bytesRead)
                    line.add("bufferBytes", t.bufferBytes)
                    line.add("predictedPeakBytes", t.predictedPeakBytes)
                    line.add("measuredPeakBytes", t.measuredPeakBytes)
                    line.add("queueWaitMs", Int(t.queueWait.inMilliseconds))
                    line.add("decodeMs", Int(t.decodeTime.inMilliseconds))
                    terminal.out(line.text)
                case .failure(let error):
                    failed += 1
                    if json {
                        line.add("error", error.naming(cell.path).description)
                        terminal.out(line.text)
                    } else {
                        terminal.err("shrink: \(error.naming(cell.path).description)")
                    }
                }
                terminal.tick()
            }
        } catch {
            Terminal.printError(error.description)
            throw ExitCode.failure
        }
        let end = ProcessStatus.read()
        maxThreads = max(maxThreads, end.threads)
        let seconds = Clock.seconds(since: start)
        let ledger = summary.ledger
        if json {
            var line = JSONLine()
            line.add("output", output)
            line.add("width", summary.size.width)
            line.add("height", summary.size.height)
            line.add("photos", photos.count)
            line.add("failed", failed)
            line.add("milliseconds", Int(seconds * 1000))
            line.add("budget", ledger.budget)
            line.add("peakRunningCharge", ledger.peakRunningCharge)
            line.add("peakRunningDecodes", ledger.peakRunningDecodes)
            line.add("decodesStarted", ledger.decodesStarted)
            line.add("coalescedRequests", ledger.coalescedRequests)
            line.add("memoryCacheHits", ledger.memoryCacheHits)
            line.add("diskCacheHits", ledger.diskCacheHits)
            line.add("diskCacheMisses", ledger.diskCacheMisses)
            line.add("maxThreads", maxThreads)
            line.add("rssBaselineBytes", baseline.residentBytes)
            line.add("peakRssBytes", end.peakResidentBytes)
            terminal.out(line.text)
        } else {
            terminal.out(
                "\(output) \(summary.size): \(summary.shown) of \(photos.count) photos in "
                    + "\(Int(seconds * 1000)) ms; budget \(Formatting.bytes(ledger.budget)), peak charged "
                    + "\(Formatting.bytes(ledger.peakRunningCharge)) (\(ledger.peakRunningDecodes) at once), "
                    + "\(maxThreads) threads at most, peak resident memory \(Formatting.bytes(end.peakResidentBytes))")
        }
        if failed > 0 { throw ExitCode.failure }
    }

    static func color(_ hex: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
        return (UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
    }
}
