import ArgumentParser
import Shrink

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shrink thumbnail INPUT... [--size N | --size WxH] [--fit inside|cover] [--mode quality|fast] [--quality Q]
/// [-o PATH] [--jobs N] [--json]`.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails (or full-size oriented copies) without decoding the full-size bitmap.",
        discussion: """
            The plan comes from the header: JPEGs decode at 1/2, 1/4 or 1/8 scale where that leaves at least 2× \
            to the Lanczos-3 resampler (quality mode) or straight to the nearest scale (fast mode), rows stream \
            into the resampler, and EXIF orientation is applied once. Without --size the image is decoded at full \
            size, oriented.

            Inputs are JPEG, PNG, WebP (first frame of an animation), GIF (first frame), HEIC and AVIF, recognised by their \
            bytes. One input with -o ending in .jpg, .jpeg, .png or .webp writes that file; otherwise -o is a \
            directory (created if missing) that receives NAME.jpg (or .png / .webp with --format; inputs sharing a name become \
            NAME-2, NAME-3, …). Without -o, outputs go to the current directory as NAME.thumb.jpg. Batches run on --jobs workers, continue past a bad file, and \
            exit 1 at the end if any failed (2 for usage errors).

            Examples:
              shrink thumbnail photo.jpg --size 400 -o thumb.jpg
              shrink thumbnail photo.jpg --size 300x200 --fit cover -o cover.png
              shrink thumbnail photo.jpg --prescale 1/8 -o eighth.png
              shrink thumbnail photos/*.jpg --size 256 -o thumbs/ --jobs 2 --json
              cat photo.jpg | shrink thumbnail - --size 256 -o thumb.jpg      # - reads standard input

            Damaged files that other decoders open (corrupt entropy data, damage after the last row, a bad checksum, \
            malformed EXIF) are decoded and reported as warnings on stderr and in --json; --strict makes \
            them errors. Directories, FIFOs, devices and empty files are refused with an error.
            """
    )

    @Argument(help: "Input images, or directories (the images in them, recognised by extension or content); - reads standard input.")
    var inputs: [String]

    @Option(help: "Long side N, or a WxH box. Omit for a full-size (oriented) decode.")
    var size: SizeArgument?

    @Option(help: ArgumentHelp("Decode at exactly this DCT scale with no resampling, oriented (JPEG: 1/2, 1/4 or 1/8; also 1): the fastest thumbnail, and what djpeg -scale gives.", valueName: "1/N"))
    var prescale: PrescaleArgument?

    @Option(help: "How the image fills a WxH box: inside (keep aspect, fit in the box) or cover (fill the box, crop the centre).")
    var fit: ThumbnailTarget.Fit = .inside

    @Option(help: "quality: leave at least 2x to the Lanczos resampler; fast: prescale to the nearest size.")
    var mode: ThumbnailOptions.Mode = .quality

    @Flag(inversion: .prefixedNo, help: "Decode the thumbnail embedded in the file instead of the image when it is at least --size with the image's aspect ratio: a JPEG's EXIF thumbnail or a HEIC/AVIF thmb image whose orientation and colour match the photo's (default: on with --mode fast, off with --mode quality).")
    var embeddedThumbnail: Bool?

    @Option(help: "Pixel format held in memory: auto (what the output takes: yuv420 for opaque colour written as 4:2:0 JPEG, the decoder's own gray8/rgb8/rgba8 otherwise), display (premultiplied bgra8), high (rgba16 for 16-bit sources, reduced in 16-bit precision), or one of gray8, grayAlpha8, alpha8, rgb8, rgba8, rgba8Premultiplied, bgra8, bgra8Premultiplied, rgba16, yuv420, nv12.")
    var pixelFormat: PixelFormatArgument = PixelFormatArgument(argument: "auto")!

    @Option(help: "JPEG and lossy WebP output quality, 1-100.")
    var quality: Int = 85

    @Option(help: "JPEG output chroma subsampling: 420 or 444.")
    var subsampling: Int = 420

    @Flag(help: "Write progressive JPEGs.")
    var progressive = false

    @Option(help: "Output format when -o is a directory or absent: jpg, png or webp.")
    var format: String = "jpg"

    @Option(help: "PNG output: zlib compression level, 0-9.")
    var compression: Int = 6

    @Option(help: "PNG output: scanline filters: none (the default, as libvips writes: fastest), adaptive (about a quarter smaller, slower), sub, up, average, paeth, or auto (adaptive up to 4 MP, none above).")
    var pngFilter: PNGEncoder.Filters = .none

    @Option(help: "PNG output: bits per sample, 8 or 16 (default: 16 for rgba16 pixels, else 8).")
    var depth: Int?

    @Flag(help: "WebP output: lossless (VP8L) instead of lossy.")
    var lossless = false

    @Flag(help: "Keep the source's EXIF block in the output (orientation reset to 1). Stripped by default: it may hold GPS.")
    var keepExif = false

    @Flag(help: "Drop the source's ICC profile (kept by default so colours stay right).")
    var stripIcc = false

    @Option(name: .shortAndLong, help: "Output file (one input, .jpg/.jpeg/.png/.webp) or directory.")
    var output: String?

    @Flag(help: "Enlarge images smaller than --size.")
    var upscale = false

    @OptionGroup(title: "Limits and damage")
    var decoding: DecodingArguments

    @OptionGroup(title: "Colour")
    var colorArguments: ColorArguments

    @Option(help: "Parallel workers (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "One JSON line per input: input, output, sourceWidth, sourceHeight, orientation, width, height, prescale, path (the route the decode took: dctScaledRows, dctScaledPlanes, coefficientBuffer, dcFirst, embeddedThumbnail, rows, interlacedPasses, scaledPlanes, scaledRows, wholeImage, firstFrameRows, interlacedFrame, tileRows), decoder (the library that decoded: libjpeg-turbo, libspng, libwebp, giflib, libde265 or dav1d, with its version when it gives one), pixelFormat, bufferBytes, predictedPeakBytes, measuredPeakBytes (heap growth during the decode, sampled at each strip; with one worker, else null), heapHighWaterBytes (growth of the allocator's hold from the system during the decode: its high-water mark, but for what fits in free chunks held before, when run with GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=0), warnings (damage stepped over), milliseconds (and error).")
    var json = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one input image") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1-100") }
        guard subsampling == 420 || subsampling == 444 else { throw ValidationError("--subsampling must be 420 or 444") }
        guard Self.writableFormat(named: format) != nil else {
            throw ValidationError("--format must be one of \(CodecRegistry.standard.writableFormats.flatMap(\.fileExtensions).joined(separator: ", "))")
        }
        guard (0...9).contains(compression) else { throw ValidationError("--compression must be 0-9") }
        if let depth, depth != 8 && depth != 16 { throw ValidationError("--depth must be 8 or 16") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if prescale != nil && size != nil { throw ValidationError("--prescale and --size cannot be combined: a prescale decides the size") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("- (standard input) can be given once") }
        if let output, let format = CodecRegistry.standard.format(forPath: output), CodecRegistry.standard.encoder(forPath: output) == nil,
           !FileOutput.isDirectory(output) {
            throw ValidationError("\(format.name.uppercased()) output is not supported: -o must end in \(OutputExtensions.list), or name a directory")
        }
        if lossless {
            let named = output.flatMap { FileOutput.isDirectory($0) ? nil : CodecRegistry.standard.encoder(forPath: $0)?.format }
            guard (named ?? Self.writableFormat(named: format)) == .webp else {
                throw ValidationError("--lossless applies to WebP output (-o x.webp or --format webp)")
            }
        }
        if inputs.count > 1, let output, CodecRegistry.standard.encoder(forPath: output) != nil, !FileOutput.isDirectory(output) {
            throw ValidationError("-o \(output) names one file but there are \(inputs.count) inputs; give a directory")
        }
    }

    func run() throws {
        let inputs = InputFiles.expand(self.inputs)
        // Where each output goes, and in which format.
        let registry = CodecRegistry.standard
        var singlePath: String?
        var outputFormat = Self.writableFormat(named: format) ?? .jpeg
        var directory = "."
        var suffix = ".thumb"
        if let output {
            if inputs.count == 1, !FileOutput.isDirectory(output), let f = registry.encoder(forPath: output)?.format {
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
        let encoder = encoder(for: outputFormat)
        // auto: what the encoder takes best (YUV planes as they are for a 4:2:0 JPEG: no RGB image, no colour
        // conversion either way; the decoder's own pixels for lossless outputs).
        let options = ThumbnailOptions(mode: mode, allowUpscaling: upscale, strict: decoding.strict,
                                       pixelFormat: pixelFormat.request ?? encoder.preferredPixels,
                                       memoryBudget: decoding.memoryBudget, useEmbeddedThumbnail: embeddedThumbnail,
                                       color: colorArguments.colour)
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
            let input = inputs[i]
            let destination = single ?? Self.outputPath(for: input, number: numbers[i], directory: outputDirectory,
                                                        suffix: outputSuffix, format: destinationFormat)
            let start = Clock.now()
            var line = JSONLine()
            line.add("input", input)
            do {
                let monitor = measures ? DecodeMonitor() : nil
                let source = try decoding.open(input)
                if let monitor {
                    HeapUsage.returnFreeMemory()       // so heapHighWaterBytes counts little memory held from before
                    monitor.beginMeasuring()
                }
                let image = try source.image(target, options: options, monitor: monitor)
                try image.write(to: destination, as: encoder)
                let ms = Clock.milliseconds(since: start)
                DecodingArguments.report(image.warnings, for: DecodingArguments.name(of: input), to: terminal)
                if json {
                    line.add("output", destination)
                    line.add("sourceWidth", source.info.size.width)
                    line.add("sourceHeight", source.info.size.height)
                    line.add("orientation", source.info.orientation.rawValue)
                    line.add("width", image.size.width)
                    line.add("height", image.size.height)
                    line.add("prescale", image.plan.prescaleText)
                    line.add("path", image.decodePath?.name)
                    line.add("decoder", image.decoder)
                    line.add("pixelFormat", image.pixels.format.rawValue)
                    line.add("colour", image.colorConversion?.summary ?? "kept")
                    line.add("bufferBytes", image.pixels.byteCount)
                    line.add("predictedPeakBytes", image.predictedPeakBytes)
                    line.add("measuredPeakBytes", monitor?.peakBytes)
                    line.add("heapHighWaterBytes", monitor?.systemGrowthBytes)
                    line.add("warnings", strings: image.warnings)
                    line.add("milliseconds", ms)
                    terminal.out(line.text)
                } else {
                    let naive = source.info.decodedBytes(as: .rgba8)
                    let workingBytes = source.route(for: image.plan, format: image.pixels.format, color: options.color).workingBytes
                    let working = workingBytes > 0 && image.decodePath != .embeddedThumbnail
                        ? " plus \(Formatting.bytes(workingBytes)) of decoder working memory (\(image.decodePath?.name ?? "decoder"))" : ""
                    terminal.out("\(input) \(source.info.displayedSize) -> \(destination) \(image.size) "
                        + "(prescale \(image.plan.prescaleText)): a full RGBA8 decode would hold \(Formatting.bytes(naive)); "
                        + "Shrink held \(Formatting.bytes(image.pixels.byteCount)) (\(image.pixels.format.rawValue))\(working) in \(ms) ms")
                }
            } catch let error as ImageError {
                failures.add()
                let message = error.naming(DecodingArguments.name(of: input)).description
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
            terminal.out("\(inputs.count - failures.count) of \(inputs.count) done; peak resident memory of the whole "
                + "process: \(Formatting.bytes(peak))")
        }
        if failures.count > 0 { throw ExitCode.failure }
    }

    #if canImport(Glibc)
    static let selfUsage = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    static let selfUsage = RUSAGE_SELF
    #endif

    /// `DIR/NAME{suffix}.EXT` for each input `…/NAME.jpg`; inputs that share a name (from different
    /// folders) get `NAME-2`, `NAME-3`, … in input order, so no output overwrites another.
    static func outputPaths(for inputs: [String], directory: String, suffix: String, format: ImageFormat) -> [String] {
        zip(inputs, outputNumbers(for: inputs)).map { outputPath(for: $0, number: $1, directory: directory, suffix: suffix, format: format) }
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
    static func outputPath(for input: String, number: Int32, directory: String, suffix: String, format: ImageFormat) -> String {
        let dir = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return "\(dir)/\(outputName(of: input))\(number > 1 ? "-\(number)" : "")\(suffix).\(format.fileExtension)"
    }

    /// The writable format an extension names (`jpg`, `png`…), or nil.
    static func writableFormat(named name: String) -> ImageFormat? {
        CodecRegistry.standard.encoder(forPath: "x." + name)?.format
    }

    /// The encoder for `format`, configured by the output options.
    func encoder(for format: ImageFormat) -> any ImageEncoding {
        switch format {
        case .webp:
            return WebPEncoder(options: WebPEncoder.Options(quality: quality, lossless: lossless, keepICCProfile: !stripIcc,
                                                            keepEXIF: keepExif))
        case .png:
            return PNGEncoder(options: PNGEncoder.Options(compressionLevel: compression, filters: pngFilter, bitDepth: depth,
                                                          keepICCProfile: !stripIcc, keepEXIF: keepExif))
        default:
            var options = JPEGEncoder.Options(quality: quality, chroma444: subsampling == 444, progressive: progressive)
            options.keepEXIF = keepExif
            options.keepICCProfile = !stripIcc
            return JPEGEncoder(options: options)
        }
    }

    /// The input's file name without its extension (`stdin` for `-`).
    private static func outputName(of input: String) -> String {
        var name = input == "-" ? "stdin" : input.split(separator: "/").last.map(String.init) ?? input
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name
    }
}
