import ArgumentParser
import Shrink

extension ThumbnailCommand {
    /// `shrink thumbnail ARGS` parsed without ArgumentParser's reflection: ArgumentParser builds the argument
    /// sets of the whole command tree through `Mirror` and the runtime's type lookups, about 4 ms of CPU per
    /// process, which is half of a small thumbnail's cost. This parser knows the spellings a batch or a
    /// server's helper uses — inputs, `--name value`, `--name=value`, `-o value` and the flags — and sets every
    /// property, the defaults being those declared in ``ThumbnailCommand``. It returns nil, leaving the
    /// arguments to ArgumentParser (which then writes its usual help and errors), for anything else: an
    /// unknown or repeated option, `--`, grouped short flags, a value that does not parse, or arguments that
    /// fail ``validate()``. `ThumbnailParsingTests` checks that both parsers agree.
    static func fastParse(_ arguments: [String]) -> ThumbnailCommand? {
        var command = ThumbnailCommand()
        var inputs: [String] = []
        var size: SizeArgument?, prescale: PrescaleArgument?, fit = ThumbnailTarget.Fit.inside
        var mode = ThumbnailOptions.Mode.quality, embedded: Bool?, pixelFormat = PixelFormatArgument(argument: "auto")!
        var quality = 85, subsampling = 420, progressive = false, format = "jpg", compression = 6
        var pngFilter = PNGEncoder.Filters.none, depth: Int?, lossless = false, keepExif = false, stripIcc = false
        var output: String?, upscale = false, jobs: Int?, json = false
        let limits = ImageLimits()
        var maxPixels = limits.maxPixels, maxInputBytes = limits.maxInputBytes, maxScans = limits.maxScans
        var memoryBudget = ThumbnailOptions().memoryBudget, strict = false, colour = ColorPolicy.sRGB

        var seen = Set<String>()
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                inputs.append(argument)
                continue
            }
            var name = argument, inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "-o" { name = "--output" }
            if name == "--color" { name = "--colour" }
            guard seen.insert(name == "--no-embedded-thumbnail" ? "--embedded-thumbnail" : name).inserted else { return nil }
            // Flags take no value.
            var isFlag = true
            switch name {
            case "--progressive": progressive = true
            case "--lossless": lossless = true
            case "--keep-exif": keepExif = true
            case "--strip-icc": stripIcc = true
            case "--upscale": upscale = true
            case "--json": json = true
            case "--strict": strict = true
            case "--embedded-thumbnail": embedded = true
            case "--no-embedded-thumbnail": embedded = false
            default: isFlag = false
            }
            if isFlag {
                guard inlineValue == nil else { return nil }
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count, !arguments[i].hasPrefix("-") || arguments[i] == "-" else { return nil }
                value = arguments[i]
                i += 1
            }
            func parse<T: ExpressibleByArgument>(_ type: T.Type = T.self) -> T? { T(argument: value) }
            switch name {
            case "--size": guard let v: SizeArgument = parse() else { return nil }; size = v
            case "--prescale": guard let v: PrescaleArgument = parse() else { return nil }; prescale = v
            case "--fit": guard let v: ThumbnailTarget.Fit = parse() else { return nil }; fit = v
            case "--mode": guard let v: ThumbnailOptions.Mode = parse() else { return nil }; mode = v
            case "--pixel-format": guard let v: PixelFormatArgument = parse() else { return nil }; pixelFormat = v
            case "--quality": guard let v: Int = parse() else { return nil }; quality = v
            case "--subsampling": guard let v: Int = parse() else { return nil }; subsampling = v
            case "--format": format = value
            case "--compression": guard let v: Int = parse() else { return nil }; compression = v
            case "--png-filter": guard let v: PNGEncoder.Filters = parse() else { return nil }; pngFilter = v
            case "--depth": guard let v: Int = parse() else { return nil }; depth = v
            case "--output": output = value
            case "--jobs": guard let v: Int = parse() else { return nil }; jobs = v
            case "--max-pixels": guard let v: Int = parse() else { return nil }; maxPixels = v
            case "--max-input-bytes": guard let v: Int = parse() else { return nil }; maxInputBytes = v
            case "--max-scans": guard let v: Int = parse() else { return nil }; maxScans = v
            case "--memory-budget": guard let v: Int = parse() else { return nil }; memoryBudget = v
            case "--colour": guard let v: ColorPolicy = parse() else { return nil }; colour = v
            default: return nil
            }
        }

        command.inputs = inputs
        command.size = size
        command.prescale = prescale
        command.fit = fit
        command.mode = mode
        command.embeddedThumbnail = embedded
        command.pixelFormat = pixelFormat
        command.quality = quality
        command.subsampling = subsampling
        command.progressive = progressive
        command.format = format
        command.compression = compression
        command.pngFilter = pngFilter
        command.depth = depth
        command.lossless = lossless
        command.keepExif = keepExif
        command.stripIcc = stripIcc
        command.output = output
        command.upscale = upscale
        command.jobs = jobs
        command.json = json
        var decoding = DecodingArguments()
        decoding.maxPixels = maxPixels
        decoding.maxInputBytes = maxInputBytes
        decoding.maxScans = maxScans
        decoding.memoryBudget = memoryBudget
        decoding.strict = strict
        command.decoding = decoding
        var colorArguments = ColorArguments()
        colorArguments.colour = colour
        command.colorArguments = colorArguments
        do {
            try decoding.validate()
            try command.validate()
        } catch {
            return nil
        }
        return command
    }
}
