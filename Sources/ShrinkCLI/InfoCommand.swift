import ArgumentParser
import Shrink

/// `shrink info FILE... [--json]`: what each image is and what it would cost decoded, from headers alone.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what images are and what they cost decoded, reading headers only.",
        discussion: """
            No pixel is decoded. For each file: format, size, EXIF orientation and displayed size, color model, \
            bits per component, progressive or not, chroma subsampling, ICC and EXIF sizes, the embedded EXIF \
            thumbnail, and the bytes the full displayed image takes in each pixel format.

            Examples:
              shrink info photo.jpg
              shrink info --json photos/*.jpg | jq .decodedBytes.rgba8
            """
    )

    @Argument(help: "Image files (- reads standard input).")
    var files: [String]

    @OptionGroup(title: "Limits and damage")
    var decoding: DecodingArguments

    @Flag(
        help:
            "One JSON object per line (keys: path, format, width, height, orientation, orientedWidth, orientedHeight, colorModel, bitsPerComponent, hasAlpha, progressive, chromaSubsampling, iccProfileBytes, iccProfile (its description, colour space and kind, or null), codedColor (what the file codes without a profile: HEIF nclx, PNG cICP or gAMA/cHRM, as the profile Shrink converts from, or null), exifBytes, embeddedThumbnail, features, frames (1 for a still image), frameDurations (each frame's duration in ms, up to 1000; empty for a still image), loopCount (as the file says: 0 = forever, the NETSCAPE repeat count for GIF; null for a still), warnings, fileBytes, decodedBytes; progressive means interlaced for PNG and GIF)."
    )
    var json = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file") }
    }

    func run() throws {
        var failed = false
        for path in files {
            do throws(ImageError) {
                let source = try decoding.open(path)
                if decoding.strict, let first = source.info.warnings.first {
                    throw ImageError(.corruptData, "\(path): \(first) (strict decoding)")
                }
                print(json ? Self.json(source) : Self.table(source))
                DecodingSettings.report(source.info.warnings, for: DecodingSettings.name(of: path))
            } catch {
                failed = true
                if json {
                    var line = JSONLine()
                    line.add("path", path)
                    line.add("error", error.naming(DecodingSettings.name(of: path)).description)
                    print(line.text)
                } else {
                    Terminal.printError(error.naming(DecodingSettings.name(of: path)).description)
                }
            }
        }
        if failed { throw ExitCode.failure }
    }

    static func json(_ source: ImageSource) -> String {
        let info = source.info
        var line = JSONLine()
        line.add("path", source.name)
        line.add("format", info.format.name)
        line.add("width", info.size.width)
        line.add("height", info.size.height)
        line.add("orientation", info.orientation.rawValue)
        line.add("orientedWidth", info.displayedSize.width)
        line.add("orientedHeight", info.displayedSize.height)
        line.add("colorModel", info.colorModel.rawValue)
        line.add("bitsPerComponent", info.bitsPerComponent)
        line.add("hasAlpha", info.hasAlpha)
        line.add("progressive", info.isProgressive)
        line.add("chromaSubsampling", info.chromaSubsampling?.rawValue)
        line.add("iccProfileBytes", info.iccProfileBytes)
        line.add("iccProfile", Self.profile(source))
        line.add("codedColor", Self.codedColor(source))
        line.add("exifBytes", info.exifBytes)
        var thumbnail: JSONLine?
        if let t = info.embeddedThumbnail {
            var object = JSONLine()
            object.add("width", t.width)
            object.add("height", t.height)
            thumbnail = object
        }
        line.add("embeddedThumbnail", object: thumbnail)
        line.add("features", strings: info.features)
        line.add("frames", info.frameCount)
        line.add("frameDurations", integers: source.decoder.frameDurations(limit: Self.listedDurations))
        line.add("loopCount", info.loopCount)
        line.add("warnings", strings: info.warnings)
        line.add("fileBytes", source.fileBytes)
        line.add("decodedBytes", object: Formatting.decodedBytesJSON(info))
        return line.text
    }

    /// Most frame durations `info` lists.
    static let listedDurations = 1000

    static func layout(_ info: ImageInfo, durations: [Int] = []) -> String {
        var parts: [String] = []
        if let layout = info.layout { parts.append(layout) }
        if info.frameCount > 1 {
            let loops = info.loopCount.map { $0 == 0 ? ", looping forever" : ", loop count \($0)" } ?? ""
            var timing = ""
            if !durations.isEmpty {
                let shown = durations.prefix(12).map { "\($0)" }.joined(separator: " ")
                timing = ", \(durations.reduce(0, +)) ms: \(shown)\(durations.count > 12 ? " …" : "") ms each"
            }
            let keeping = CodecRegistry.standard.codecs.compactMap {
                $0.writer?.accepts.contains(.animation) == true ? $0.format.name.uppercased() : nil
            }
            parts.append(
                "\(info.frameCount) frames\(loops)\(timing) (kept when written as \(keeping.joined(separator: " or ")); "
                    + "else the first)")
        }
        return parts.joined(separator: ", ")
    }

    /// The ICC profile as lcms2 describes it ("Display P3 (RGB, matrix-shaper, 536 B)"), nil when there is none.
    static func profile(_ source: ImageSource) -> String? {
        guard source.info.iccProfileBytes > 0 else { return nil }
        guard let bytes = try? source.decoder.metadata().iccProfile else {
            return "\(Formatting.bytes(source.info.iccProfileBytes)) (unreadable)"
        }
        return ColorProfile(bytes)?.summary
            ?? "\(Formatting.bytes(bytes.count)) (lcms2 cannot read it: treated as sRGB)"
    }

    /// What the file codes of its colour without a profile, as the equivalent profile's name ("BT.2020 PQ (coded
    /// 9/16)"), "sRGB" when it means sRGB; nil when it codes nothing.
    static func codedColor(_ source: ImageSource) -> String? {
        guard let coded = source.info.codedColor else { return nil }
        let gray = source.info.colorModel == .gray || source.info.colorModel == .grayAlpha
        return CodedColorProfiles.profile(for: coded, gray: gray)?.name ?? "sRGB"
    }

    static func table(_ source: ImageSource) -> String {
        let info = source.info
        var rows: [(String, String)] = [
            (
                "format",
                [
                    info.format.name.uppercased(),
                    Self.layout(info, durations: source.decoder.frameDurations(limit: Self.listedDurations)),
                ].filter { !$0.isEmpty }.joined(separator: ", ")
            ),
            ("size", "\(info.size) (\(info.size.pixelCount) pixels)"),
            (
                "orientation",
                "\(info.orientation.rawValue)\(info.orientation == .up ? "" : ", displayed \(info.displayedSize)")"
            ),
            ("colour", "\(info.colorModel.rawValue), \(info.bitsPerComponent)-bit\(info.hasAlpha ? ", alpha" : "")"),
            ("subsampling", info.chromaSubsampling?.rawValue ?? "-"),
            ("ICC profile", Self.profile(source) ?? "none"),
            ("coded colour", Self.codedColor(source) ?? "-"),
            ("EXIF", info.exifBytes > 0 ? Formatting.bytes(info.exifBytes) : "none"),
            (
                "thumbnail",
                info.embeddedThumbnail.map {
                    "\($0) (\(source.decoder.embeddedThumbnail() == nil ? "EXIF" : "a thmb image of its own"))"
                } ?? "none"
            ),
            ("features", info.features.isEmpty ? "-" : info.features.joined(separator: ", ")),
            ("warnings", info.warnings.isEmpty ? "none" : info.warnings.joined(separator: "; ")),
            ("file", Formatting.bytes(source.fileBytes)),
        ]
        let full = source.decoder.route(RouteRequest(scaleDenominator: 1))
        if full.workingBytes > 0 {
            rows.append(("decoder memory", "\(Formatting.bytes(full.workingBytes)) at full size (\(full.path) route)"))
            if source.decoder.scaleDenominators.contains(8) {
                let eighth = source.decoder.route(RouteRequest(scaleDenominator: 8))
                if eighth.path != full.path {
                    rows.append(("1/8 decodes", "\(eighth.path) route, \(Formatting.bytes(eighth.workingBytes))"))
                }
            }
        }
        rows.append(
            (
                "decoded cost",
                PixelFormat.allCases.map {
                    "\($0.rawValue) \(Formatting.bytes(info.decodedBytes(as: $0)))"
                }.joined(separator: ", ")
            ))
        let width = rows.map(\.0.count).max() ?? 0
        return
            ([source.name] + rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 })
            .joined(separator: "\n")
    }
}
