import ArgumentParser
import Shrink

/// `shrink crop INPUT --rect X,Y,W,H [--size N | --size WxH] [-o OUT] [--json]`.
struct CropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crop",
        abstract: "Decode only a region of an image (in displayed pixels, after EXIF orientation), optionally reduced.",
        discussion: """
            The rectangle is what a viewer shows: X,Y from the top-left of the oriented image. Rows below the region \
            are never decoded; rows above are decoded but not kept; with --size the region is also reduced (JPEG \
            DCT prescaling applies). A rectangle outside the image is an error.

            Examples:
              shrink crop photo.jpg --rect 100,200,512,512 -o face.jpg
              shrink crop photo.jpg --rect 0,0,2000,1000 --size 400 -o banner.png --json
            """
    )

    @Argument(help: "Input image.")
    var input: String

    @Option(help: "The region X,Y,W,H in displayed pixels.")
    var rect: RectArgument

    @Option(help: "Reduce the region: long side N, or a WxH box.")
    var size: SizeArgument?

    @Option(
        help:
            "How the region fills a WxH box: inside, cover, fill, auto (fill when both are landscape or both portrait, else inside) or stretch."
    )
    var fit: ThumbnailTarget.Fit = .inside

    @Option(help: OutputExtensions.qualityHelp)
    var quality: Int = 85

    @Flag(help: OutputExtensions.optimizeCodingHelp)
    var optimizeCoding = false

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Output file (\(OutputExtensions.list)). Default: NAME.crop.jpg in the current directory."))
    var output: String?

    @Flag(help: "One JSON line: input, output, rect, width, height, prescale, pixelFormat, bufferBytes, milliseconds.")
    var json = false

    @OptionGroup(title: "Limits and damage")
    var decoding: DecodingArguments

    @OptionGroup(title: "Colour")
    var colorArguments: ColorArguments

    @Flag(
        help:
            "JPEG only: cut the region from the DCT coefficients without re-encoding; it is widened to iMCU (8 or 16 pixel) boundaries and --size is not allowed."
    )
    var lossless = false

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1-100") }
        if let output, CodecRegistry.standard.encoder(forPath: output) == nil {
            throw ValidationError("-o must end in \(OutputExtensions.list)")
        }
        if lossless {
            if size != nil { throw ValidationError("--lossless cannot reduce: drop --size") }
            if optimizeCoding { throw OutputExtensions.optimizeCodingWithLossless }
            if let output, !OutputExtensions.transformsLosslessly(output) {
                throw ValidationError(OutputExtensions.losslessUsage)
            }
        }
    }

    func run() throws {
        let destination =
            output ?? ThumbnailJob.outputPaths(for: [input], directory: ".", suffix: ".crop", format: .jpeg)[0]
        guard
            let format = OutputExtensions.encoder(
                forPath: destination, quality: quality, optimizeCoding: optimizeCoding)
        else { throw ValidationError("-o must end in \(OutputExtensions.list)") }
        let start = Clock.now()
        do {
            let source = try decoding.open(input)
            if lossless {
                let (bytes, kept) = try source.losslessCrop(rect.rect)
                try FileOutput.write(bytes, to: destination)
                let text = kept.description
                if json {
                    var line = JSONLine()
                    line.add("input", input)
                    line.add("output", destination)
                    line.add("rect", text)
                    line.add("width", kept.width)
                    line.add("height", kept.height)
                    line.add("lossless", true)
                    line.add("milliseconds", Clock.milliseconds(since: start))
                    print(line.text)
                } else {
                    print("\(input) \(self.rect.text) -> \(destination) \(text) (lossless, widened to iMCU boundaries)")
                }
                return
            }
            let image = try source.image(
                size?.target(fit: fit) ?? .original, region: rect.rect,
                options: ThumbnailOptions(
                    strict: decoding.strict, pixelFormat: format.preferredPixels,
                    color: colorArguments.color))
            DecodingSettings.report(image.warnings, for: DecodingSettings.name(of: input))
            try image.write(to: destination, as: format)
            let ms = Clock.milliseconds(since: start)
            if json {
                var line = JSONLine()
                line.add("input", input)
                line.add("output", destination)
                line.add("rect", rect.text)
                line.add("width", image.size.width)
                line.add("height", image.size.height)
                line.add("prescale", image.plan.prescaleText)
                line.add("pixelFormat", image.pixels.format.rawValue)
                line.add("bufferBytes", image.pixels.byteCount)
                line.add("milliseconds", ms)
                print(line.text)
            } else {
                print(
                    "\(input) \(rect.text) -> \(destination) \(image.size) (prescale \(image.plan.prescaleText), "
                        + "\(image.pixels.format.rawValue), \(Formatting.bytes(image.pixels.byteCount))) in \(ms) ms")
            }
        } catch {
            Terminal.printError(error.naming(DecodingSettings.name(of: input)).description)
            throw ExitCode.failure
        }
    }
}

/// `--rect X,Y,W,H` in whole pixels.
struct RectArgument: ExpressibleByArgument, Sendable {
    let rect: PixelRect
    let text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Int($0.filter { $0 != " " }) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w > 0, h > 0
        else { return nil }
        rect = PixelRect(x: x, y: y, width: w, height: h)
        text = "\(x),\(y),\(w),\(h)"
    }
}
