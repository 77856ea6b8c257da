import ArgumentParser
import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `shrink thumbnail` run as plain values, whichever parser produced them (``ThumbnailCommand`` through
/// ArgumentParser, or ``fastParse(_:)``): the memberwise initializer makes both supply every setting.
struct ThumbnailJob {
    var inputs: [String]
    var size: SizeArgument?
    var prescale: PrescaleArgument?
    var fit: ThumbnailTarget.Fit
    var gravity: GravityArgument
    var mode: ThumbnailOptions.Mode
    var embeddedThumbnail: Bool?
    var pixelFormat: PixelFormatArgument
    var quality: Int
    var subsampling: Int
    var progressive: Bool
    var optimizeCoding: Bool
    var format: String
    var compression: Int
    var pngFilter: PNGEncoder.Filters
    var depth: Int?
    var lossless: Bool
    var keepExif: Bool
    var stripIcc: Bool
    var output: String?
    var upscale: Bool
    var frames: FramesArgument
    var decoding: DecodingSettings
    var color: ColorPolicy
    var jobs: Int?
    var json: Bool

    /// Refuses settings that cannot work together, with the message a user sees (exit status 2).
    func validate() throws {
        if let problem = decoding.problem { throw ValidationError(problem) }
        guard !inputs.isEmpty else { throw ValidationError("give at least one input image") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1-100") }
        guard subsampling == 420 || subsampling == 444 else {
            throw ValidationError("--subsampling must be 420 or 444")
        }
        guard Self.writableFormat(named: format) != nil else {
            throw ValidationError(
                "--format must be one of \(CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions).joined(separator: ", "))"
            )
        }
        guard (0...9).contains(compression) else { throw ValidationError("--compression must be 0-9") }
        if let depth, depth != 8 && depth != 16 { throw ValidationError("--depth must be 8 or 16") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if prescale != nil && size != nil {
            throw ValidationError("--prescale and --size cannot be combined: a prescale decides the size")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("- (standard input) can be given once") }
        if let output, let format = CodecRegistry.standard.format(forPath: output),
            CodecRegistry.standard.encoder(forPath: output) == nil,
            !FileOutput.isDirectory(output)
        {
            throw ValidationError(
                "\(format.name.uppercased()) output is not supported: -o must end in \(OutputExtensions.list), or name a directory"
            )
        }
        if lossless {
            let named = output.flatMap {
                FileOutput.isDirectory($0) ? nil : CodecRegistry.standard.writableFormat(forPath: $0)
            }
            let registry = CodecRegistry.standard
            guard let chosen = named ?? Self.writableFormat(named: format),
                registry.writer(for: chosen)?.reads.contains(.lossless) == true
            else {
                let lossless = registry.writableFormats.filter {
                    registry.writer(for: $0)?.reads.contains(.lossless) == true
                }
                let ways = lossless.map { "-o x.\($0.fileExtension) or --format \($0.fileExtension)" }
                throw ValidationError(
                    "--lossless applies to \(OutputExtensions.names(reading: .lossless)) output (\(ways.joined(separator: "; ")))"
                )
            }
        }
        if inputs.count > 1, let output, CodecRegistry.standard.encoder(forPath: output) != nil,
            !FileOutput.isDirectory(output)
        {
            throw ValidationError("-o \(output) names one file but there are \(inputs.count) inputs; give a directory")
        }
    }

    /// Makes every thumbnail; exits 1 (``ExitCode/failure``) at the end when any input failed.
    func run() throws {
        let inputs = InputFiles.expand(self.inputs)
        // Where each output goes, and in which format.
        let registry = CodecRegistry.standard
        var singlePath: String?
        var outputFormat = Self.writableFormat(named: format) ?? .jpeg
        var directory = "."
        var suffix = ".thumb"
        if let output {
            if inputs.count == 1, !FileOutput.isDirectory(output), let f = registry.writableFormat(forPath: output) {
                singlePath = output
                outputFormat = f
            } else {
                directory = output
                suffix = ""
                do {
                    try FileOutput.createDirectory(output)
                } catch {
                    Terminal.printError(error.description)
                    throw ExitCode.failure
                }
            }
        }
        let settings = outputSettings(for: outputFormat)
        let encoder: any ImageEncoding
        do {
            encoder = try registry.encoder(for: settings)
        } catch {
            Terminal.printError(error.description)
            throw ExitCode.failure
        }
        // auto: what the encoder takes best (YUV planes as they are for a 4:2:0 JPEG: no RGB image, no colour
        // conversion either way; the decoder's own pixels for lossless outputs).
        var chosen = ThumbnailOptions(
            mode: mode, allowUpscaling: upscale, strict: decoding.strict,
            pixelFormat: pixelFormat.request ?? encoder.preferredPixels,
            useEmbeddedThumbnail: embeddedThumbnail,
            color: color, gravity: gravity.gravity)
        // Cores the workers leave idle (one large image, a batch's last ones) decode a grid's or a TIFF's tiles or
        // strips beside them.
        let cores = SpareCores(cores: jobs)
        chosen.helpers = cores.cores > 1 ? cores : nil
        let options = chosen
        let decoding = decoding
        let target = prescale.map { ThumbnailTarget.prescale($0.denominator) } ?? size?.target(fit: fit) ?? .original
        let json = json
        let numbers = singlePath == nil ? Self.outputNumbers(for: inputs) : []
        let outputDirectory = directory, outputSuffix = suffix, single = singlePath, destinationFormat = outputFormat
        let terminal = Terminal(total: inputs.count, progress: true)
        let failures = Failures()
        let workers = min(inputs.count, jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // The heap is measured per decode only when decodes do not overlap (it is process-wide).
        let measures = json && workers == 1
        WorkerPool.run(count: inputs.count, workers: workers) { i in
            cores.occupying { convert(i) }
        }
        @Sendable func convert(_ i: Int) {
            let input = inputs[i]
            let destination =
                single
                ?? Self.outputPath(
                    for: input, number: numbers[i], directory: outputDirectory,
                    suffix: outputSuffix, format: destinationFormat)
            let start = Clock.now()
            var line = JSONLine()
            line.add("input", input)
            do {
                let monitor = measures ? DecodeMonitor() : nil
                let source = try decoding.open(input)
                if let monitor {
                    HeapUsage.returnFreeMemory() // so heapHighWaterBytes counts little memory held from before
                    monitor.beginMeasuring()
                }
                if frames == .all, encoder is any AnimationEncoding,
                    let animation = try source.animation(target, options: options, monitor: monitor),
                    let writer = try animation.encoder(for: settings)
                {
                    try Self.write(
                        animation, of: source, input: input, to: destination, as: writer, line: &line,
                        json: json, started: start, terminal: terminal)
                    terminal.tick()
                    return
                }
                let image = try source.image(target, region: nil, options: options, monitor: monitor)
                try image.write(to: destination, as: encoder)
                let ms = Clock.milliseconds(since: start)
                // An animation over the limits, bound for a format that keeps animations: its first frame, said so.
                let limited = frames == .all && encoder is any AnimationEncoding ? source.animationLimitWarning : nil
                let warnings = image.warnings + (limited.map { [$0] } ?? [])
                DecodingSettings.report(warnings, for: DecodingSettings.name(of: input), to: terminal)
                if json {
                    line.add("output", destination)
                    line.add("sourceWidth", source.info.size.width)
                    line.add("sourceHeight", source.info.size.height)
                    line.add("orientation", source.info.orientation.rawValue)
                    line.add("width", image.size.width)
                    line.add("height", image.size.height)
                    line.add("prescale", image.plan.prescaleText)
                    let window = image.plan.window
                    line.add("window", integers: [window.x, window.y, window.width, window.height])
                    line.add("path", image.decodePath?.name)
                    line.add("decoder", image.decoder)
                    line.add("encoder", encoder.library)
                    line.add("pixelFormat", image.pixels.format.rawValue)
                    line.add("color", image.colorConversion?.summary ?? "kept")
                    line.add("bufferBytes", image.pixels.byteCount)
                    // Each core the workers leave may join the decode as a helper, holding what the route says.
                    let helpers = max(0, cores.cores - workers)
                    line.add("predictedPeakBytes", image.predictedPeakBytes + helpers * image.helperBytes)
                    line.add("measuredPeakBytes", monitor?.peakBytes)
                    line.add("heapHighWaterBytes", monitor?.systemGrowthBytes)
                    line.add("warnings", strings: warnings)
                    line.add("milliseconds", ms)
                    terminal.out(line.text)
                } else {
                    let naive = source.info.decodedBytes(as: .rgba8)
                    let workingBytes = image.workingBytes
                    let working =
                        workingBytes > 0 && image.decodePath != .embeddedThumbnail
                        ? " plus \(Formatting.bytes(workingBytes)) of decoder working memory (\(image.decodePath?.name ?? "decoder"))"
                        : ""
                    terminal.out(
                        "\(input) \(source.info.displayedSize) -> \(destination) \(image.size) "
                            + "(prescale \(image.plan.prescaleText)): a full RGBA8 decode would hold \(Formatting.bytes(naive)); "
                            + "Shrink held \(Formatting.bytes(image.pixels.byteCount)) (\(image.pixels.format.rawValue))\(working) in \(ms) ms"
                    )
                }
            } catch let error as ImageError {
                failures.add()
                let message = error.naming(DecodingSettings.name(of: input)).description
                if json {
                    line.add("error", message)
                    terminal.out(line.text)
                } else {
                    terminal.err("shrink: \(message)")
                }
            } catch {
                failures.add()
                terminal.err("shrink: \(input): \(error)")
            }
            terminal.tick()
        }
        if !json {
            // VmHWM: this process's own high-water mark. getrusage's ru_maxrss survives exec on Linux, so a
            // shrink started by a large process (a test runner) reported that process's size.
            var peak = ProcessStatus.read().peakResidentBytes
            if peak == 0 {
                var usage = rusage()
                getrusage(Self.selfUsage, &usage)
                peak = Int(usage.ru_maxrss) * 1024
            }
            terminal.out(
                "\(inputs.count - failures.count) of \(inputs.count) done; peak resident memory of the whole "
                    + "process: \(Formatting.bytes(peak))")
        }
        if failures.count > 0 { throw ExitCode.failure }
    }

    #if canImport(Glibc)
        static let selfUsage = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
        static let selfUsage = RUSAGE_SELF
    #endif

    /// Writes every frame of `animation` as one animated file at `destination` and reports it (a JSON line, or a
    /// sentence naming the frames, the loop count and the memory the frames held).
    static func write(
        _ animation: AnimationFrames, of source: ImageSource, input: String, to destination: String,
        as encoder: some AnimationEncoding, line: inout JSONLine, json: Bool, started: timespec,
        terminal: Terminal
    ) throws(ImageError) {
        let file = try animation.encoded(with: encoder)
        do { try FileOutput.write(file, to: destination) } catch { throw error.naming(destination) }
        let durations = animation.durations, frameBytes = animation.frameBytes
        let ms = Clock.milliseconds(since: started)
        DecodingSettings.report(animation.warnings, for: DecodingSettings.name(of: input), to: terminal)
        if json {
            line.add("output", destination)
            line.add("sourceWidth", source.info.size.width)
            line.add("sourceHeight", source.info.size.height)
            line.add("width", animation.size.width)
            line.add("height", animation.size.height)
            line.add("path", DecodePath.animationFrames.name)
            line.add("encoder", encoder.library)
            line.add("frames", durations.count)
            line.add("durations", integers: durations)
            line.add("loopCount", animation.loopCount)
            line.add("bufferBytes", frameBytes)
            line.add("warnings", strings: animation.warnings)
            line.add("milliseconds", ms)
            terminal.out(line.text)
        } else {
            terminal.out(
                "\(input) \(source.info.displayedSize) -> \(destination) \(animation.size): \(durations.count) frames "
                    + "(\(durations.reduce(0, +)) ms, \(animation.loopCount == 0 ? "looping forever" : "played \(animation.loopCount)x")), "
                    + "one at a time: a full RGBA8 decode of every frame would hold "
                    + "\(Formatting.bytes(source.info.decodedBytes(as: .rgba8) * max(1, durations.count))); "
                    + "each frame held \(Formatting.bytes(frameBytes)) in \(ms) ms")
        }
    }

    /// `DIR/NAME{suffix}.EXT` for each input `…/NAME.jpg`; inputs that share a name (from different
    /// folders) get `NAME-2`, `NAME-3`, … in input order, so no output overwrites another.
    static func outputPaths(for inputs: [String], directory: String, suffix: String, format: ImageFormat) -> [String] {
        zip(inputs, outputNumbers(for: inputs)).map {
            outputPath(for: $0, number: $1, directory: directory, suffix: suffix, format: format)
        }
    }

    /// For each input, how many inputs up to it share its name (1 for the first): a batch keeps these
    /// numbers, not the paths, so its memory hardly grows with the number of inputs.
    static func outputNumbers(for inputs: [String]) -> [Int32] {
        var seen: [String: Int32] = [:]
        return inputs.map { input in
            let n = (seen[outputName(of: input)] ?? 0) + 1
            seen[outputName(of: input)] = n
            return n
        }
    }

    /// `DIR/NAME{-number}{suffix}.EXT`.
    static func outputPath(for input: String, number: Int32, directory: String, suffix: String, format: ImageFormat)
        -> String
    {
        let dir = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return "\(dir)/\(outputName(of: input))\(number > 1 ? "-\(number)" : "")\(suffix).\(format.fileExtension)"
    }

    /// The writable format an extension names (`jpg`, `png`…), or nil.
    static func writableFormat(named name: String) -> ImageFormat? {
        CodecRegistry.standard.writableFormat(forPath: "x." + name)
    }

    /// The output settings the options give for `format` (each format's writer reads those that apply to it).
    func outputSettings(for format: ImageFormat) -> OutputSettings {
        var settings = OutputSettings(
            format: format, quality: quality, progressive: progressive, optimizeCoding: optimizeCoding,
            keepICCProfile: !stripIcc)
        settings.lossless = lossless
        settings.chroma444 = subsampling == 444
        settings.compressionLevel = compression
        settings.bitDepth = depth
        settings.keepEXIF = keepExif
        settings.formatOptions["filter"] = pngFilter.rawValue
        return settings
    }

    /// The input's file name without its extension (`stdin` for `-`).
    private static func outputName(of input: String) -> String {
        var name = input == "-" ? "stdin" : input.split(separator: "/").last.map(String.init) ?? input
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name
    }
}
