import ArgumentParser
import Shrink

/// `shrink orient INPUT -o OUT [--lossless [--trim]]`: make a photo upright once and for all.
struct OrientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orient",
        abstract: "Apply the EXIF orientation to the pixels and set the tag to 1.",
        discussion: """
            With --lossless (JPEG only) the rotation or flip is applied to the DCT coefficients like jpegtran: nothing \
            is decoded or re-quantised and every other marker (EXIF, ICC) is kept. When the image's edge blocks make \
            a perfect transform impossible it is an error, unless --trim drops them (up to 15 pixels). Without \
            --lossless the image is decoded, oriented and re-encoded (any input; JPEG, PNG or WebP output, EXIF kept \
            with its orientation set to 1).

            Examples:
              shrink orient photo.jpg -o upright.jpg --lossless
              shrink orient photo.jpg -o upright.jpg --lossless --trim
              shrink orient scan.png -o upright.png
            """
    )

    @Argument(help: "Input image.")
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (\(OutputExtensions.list))."))
    var output: String

    @Flag(help: "Transform the JPEG's coefficients instead of decoding and re-encoding.")
    var lossless = false

    @Flag(help: "With --lossless: drop partial edge blocks that cannot be transformed exactly.")
    var trim = false

    @Option(help: "JPEG and WebP quality when re-encoding (without --lossless), 1-100.")
    var quality: Int = 92

    @Flag(help: OutputExtensions.optimizeCodingHelp)
    var optimizeCoding = false

    @OptionGroup(title: "Limits and damage")
    var decoding: DecodingArguments

    func validate() throws {
        guard CodecRegistry.standard.encoder(forPath: output) != nil
        else {
            throw ValidationError("-o must end in \(OutputExtensions.list)")
        }
        if lossless, !OutputExtensions.transformsLosslessly(output) {
            throw ValidationError(OutputExtensions.losslessUsage)
        }
        if trim && !lossless { throw ValidationError("--trim goes with --lossless") }
        if optimizeCoding && lossless { throw OutputExtensions.optimizeCodingWithLossless }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1-100") }
    }

    func run() throws {
        do throws(ImageError) {
            let source = try decoding.open(input)
            var shown = source.info.displayedSize
            if lossless {
                let upright = try source.losslesslyUpright(trim: trim)
                try FileOutput.write(upright, to: output)
                shown = try ImageSource(bytes: upright, name: output).info.size // trimming may shrink it
            } else {
                guard
                    let format = OutputExtensions.encoder(
                        forPath: output, quality: quality, keepEXIF: true,
                        chroma444: source.info.chromaSubsampling == .s444,
                        optimizeCoding: optimizeCoding)
                else { throw ImageError(.unsupportedFormat, "-o must end in \(OutputExtensions.list)") }
                // Rotating keeps the colours as they are, the profile with them.
                let image = try source.image(
                    options: ThumbnailOptions(
                        strict: decoding.strict, pixelFormat: .native,
                        color: .keep))
                try image.write(to: output, as: format)
                DecodingSettings.report(image.warnings, for: DecodingSettings.name(of: input))
            }
            print(
                "\(input) orientation \(source.info.orientation.rawValue) -> \(output) \(shown)\(lossless ? " (lossless)" : "")"
            )
        } catch {
            Terminal.printError(error.naming(DecodingSettings.name(of: input)).description)
            throw ExitCode.failure
        }
    }
}
