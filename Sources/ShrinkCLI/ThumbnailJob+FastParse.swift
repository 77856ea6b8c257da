import ArgumentParser
import Shrink

extension ThumbnailJob {
    /// The defaults of every setting: what `shrink thumbnail INPUT` does (``ThumbnailCommand``'s options
    /// declare these as their defaults).
    static let defaults = ThumbnailJob(
        inputs: [], size: nil, prescale: nil, fit: .inside, gravity: GravityArgument(gravity: .centre), mode: .quality,
        embeddedThumbnail: nil,
        pixelFormat: PixelFormatArgument(argument: "auto")!, quality: 85, subsampling: 420, progressive: false,
        optimizeCoding: false, format: "jpg",
        compression: 6, pngFilter: .none, depth: nil, lossless: false, keepExif: false, stripIcc: false, output: nil,
        upscale: false, frames: .all, decoding: DecodingSettings(), color: .sRGB, jobs: nil, json: false)

    /// `shrink thumbnail ARGS` parsed without ArgumentParser: ArgumentParser builds the argument sets of the command
    /// tree through `Mirror` and the runtime's type lookups, CPU paid in every process and a large share of a small
    /// thumbnail's cost (BENCHMARKS.md, "Figures behind the code"). This parser knows the spellings a batch or a script
    /// uses — inputs, `--name value`, `--name=value`, `-o value` and the flags — and starts from ``defaults``. It
    /// returns nil, leaving the arguments to ArgumentParser (which then writes its usual help and errors), for anything
    /// else: an unknown or repeated option, `--`, grouped short flags, a value that does not parse, or arguments that
    /// fail ``validate()``. `ThumbnailParsingTests` checks that both parsers agree.
    static func fastParse(_ arguments: [String]) -> ThumbnailJob? {
        var job = defaults
        var seen: [String] = [] // an array, not a Set: see ShrinkCommand.asksForHelp
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                job.inputs.append(argument)
                continue
            }
            var name = argument, inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "-o" { name = "--output" }
            if name == "--color" { name = "--colour" }
            let key = name == "--no-embedded-thumbnail" ? "--embedded-thumbnail" : name
            guard !seen.contains(key) else { return nil }
            seen.append(key)
            // Flags take no value.
            var isFlag = true
            switch name {
            case "--progressive": job.progressive = true
            case "--optimize-coding": job.optimizeCoding = true
            case "--lossless": job.lossless = true
            case "--keep-exif": job.keepExif = true
            case "--strip-icc": job.stripIcc = true
            case "--upscale": job.upscale = true
            case "--json": job.json = true
            case "--strict": job.decoding.strict = true
            case "--embedded-thumbnail": job.embeddedThumbnail = true
            case "--no-embedded-thumbnail": job.embeddedThumbnail = false
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
            case "--size": guard let v: SizeArgument = parse() else { return nil }; job.size = v
            case "--prescale": guard let v: PrescaleArgument = parse() else { return nil }; job.prescale = v
            case "--fit": guard let v: ThumbnailTarget.Fit = parse() else { return nil }; job.fit = v
            case "--gravity": guard let v: GravityArgument = parse() else { return nil }; job.gravity = v
            case "--mode": guard let v: ThumbnailOptions.Mode = parse() else { return nil }; job.mode = v
            case "--pixel-format": guard let v: PixelFormatArgument = parse() else { return nil }; job.pixelFormat = v
            case "--quality": guard let v: Int = parse() else { return nil }; job.quality = v
            case "--subsampling": guard let v: Int = parse() else { return nil }; job.subsampling = v
            case "--format": job.format = value
            case "--compression": guard let v: Int = parse() else { return nil }; job.compression = v
            case "--png-filter": guard let v: PNGEncoder.Filters = parse() else { return nil }; job.pngFilter = v
            case "--depth": guard let v: Int = parse() else { return nil }; job.depth = v
            case "--frames": guard let v: FramesArgument = parse() else { return nil }; job.frames = v
            case "--output": job.output = value
            case "--jobs": guard let v: Int = parse() else { return nil }; job.jobs = v
            case "--max-pixels": guard let v: Int = parse() else { return nil }; job.decoding.maxPixels = v
            case "--max-input-bytes":
                guard let v: ByteCountArgument = parse() else { return nil }; job.decoding.maxInputBytes = v.bytes
            case "--max-scans": guard let v: Int = parse() else { return nil }; job.decoding.maxScans = v
            case "--max-working-bytes", "--memory-budget":
                guard let v: ByteCountArgument = parse() else { return nil }; job.decoding.maxWorkingBytes = v.bytes
            case "--colour": guard let v: ColorPolicy = parse() else { return nil }; job.color = v
            default: return nil
            }
        }
        do {
            try job.validate()
        } catch {
            return nil
        }
        return job
    }
}
