import ArgumentParser
import Shrink

/// `shrink formats [--json]`: the codec registry as this build has it — every format it reads or writes, with
/// what each codec can do. Scripts read `--json` instead of keeping format lists of their own.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the image formats this build reads and writes, and what each codec can do.",
        discussion: """
            One line per registered codec: its name (what --format and the server's f: take), MIME type and file \
            extensions, whether it reads and writes, how it shrinks while decoding, and what it keeps (alpha, \
            bits, animation, metadata). --json prints one object per line with every field, for scripts. \
            --sniff FILE... prints, for each file, the format whose codec recognises its first bytes (`-` for none) \
            and the file, tab-separated: what `shrink` would try to open it as, without reading its header.

            Examples:
              shrink formats
              shrink formats --json | jq -r 'select(.writes) | .name'
              shrink formats --sniff photos/*
            """)

    @Flag(help: "One JSON object per format.")
    var json = false

    @Option(
        name: .customLong("sniff"), parsing: .upToNextOption,
        help: "Files to name the format of, from their first bytes.")
    var sniff: [String] = []

    func run() throws {
        let registry = CodecRegistry.standard
        if !sniff.isEmpty {
            for path in sniff {
                let format = (try? ImageBytes(mapping: path)).flatMap { registry.codec(sniffing: $0.bytes)?.format }
                print("\(format?.name ?? "-")\t\(path)")
            }
            return
        }
        let rows = registry.codecs.map { Self.row(for: $0, in: registry) }
        if json {
            for row in rows { print(row.json.text) }
            return
        }
        let header = ["FORMAT", "MIME", "EXTENSIONS", "READ", "WRITE", "SHRINK-ON-LOAD", "FEATURES", "WRITER"]
        let table = [header] + rows.map(\.columns)
        let widths = header.indices.map { i in table.map { $0[i].count }.max() ?? 0 }
        for line in table {
            print(
                zip(line, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                    .joined(separator: "  ").trimmingTrailingSpaces)
        }
    }

    /// One codec as a table row and as JSON.
    struct Row {
        var columns: [String]
        var json: JSONLine
    }

    static func row(for codec: Codec, in registry: CodecRegistry) -> Row {
        let c = codec.capabilities, writer = codec.writer
        let shrink = c.shrinkOnLoad.map { way -> String in
            switch way {
            case .dctDenominators(let d): "DCT 1/" + d.map(String.init).joined(separator: ",1/")
            case .anyFactor: "any factor"
            case .embeddedThumbnail: "embedded thumbnail"
            case .pyramidLevels: "pyramid levels"
            }
        }
        var keeps = ["\(c.maxBitsPerComponent)-bit"]
        if c.alpha { keeps.append("alpha") }
        if c.animation { keeps.append("animation") }
        if c.yieldsPlanes { keeps.append("YUV planes") }
        if c.regions { keeps.append("regions") }
        if c.losslessTransforms { keeps.append("lossless transforms") }
        keeps += c.metadata.map(\.rawValue).sorted()
        var json = JSONLine()
        json.add("name", codec.format.name)
        json.add("mimeType", codec.format.mimeType)
        json.add("extensions", strings: codec.format.fileExtensions)
        json.add("reads", true)
        json.add("writes", writer != nil)
        // The writer's library and version (loads libavif and libwebp to ask them: this command only).
        let library = writer?.defaultEncoder().library
        json.add("writer", library)
        json.add("thumbnailFormat", registry.thumbnailFormat(for: codec.format).name)
        json.add("shrinkOnLoad", strings: shrink)
        json.add("maxBitsPerComponent", c.maxBitsPerComponent)
        let features = [
            ("alpha", c.alpha), ("animation", c.animation), ("planes", c.yieldsPlanes), ("regions", c.regions),
            ("losslessTransforms", c.losslessTransforms),
        ]
        for (name, value) in features { json.add(name, value) }
        json.add("metadata", strings: c.metadata.map(\.rawValue).sorted())
        json.add("writerReads", strings: writer?.reads.map(\.rawValue).sorted() ?? [])
        json.add("writerOptions", strings: writer?.formatOptions.keys.sorted() ?? [])
        json.add("bandWritable", registry.bandWritableFormats.contains(codec.format))
        return Row(
            columns: [
                codec.format.name, codec.format.mimeType, codec.format.fileExtensions.joined(separator: " "), "yes",
                writer != nil ? "yes" : "no", shrink.isEmpty ? "-" : shrink.joined(separator: ", "),
                keeps.joined(separator: ", "), library ?? "-",
            ], json: json)
    }
}

extension String {
    /// The string without the spaces at its end (a padded last column).
    fileprivate var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)])
    }
}
