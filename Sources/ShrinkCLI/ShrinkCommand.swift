import ArgumentParser
import Shrink

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shrink`: decode images at the size they will be shown.
@main
struct ShrinkCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "shrink",
        abstract: "Decode images at the size they will be shown, in bounded memory.",
        discussion: """
            A decoded image costs width × height × bytes per pixel whatever its file size: a 24 MP photo holds \
            92 MB as RGBA8. Shrink reads the header first, plans, and decodes straight to the target size \
            (JPEG DCT prescaling, rows streamed into a Lanczos resampler), so the full-size bitmap never exists.

            Examples:
              shrink info photo.jpg
              shrink info --json *.jpg
              shrink thumbnail photo.jpg --size 400 -o thumb.jpg
              shrink thumbnail photos/*.jpg --size 300x300 --fit cover -o thumbs/ --json
              shrink crop photo.jpg --rect 100,200,512,512 -o region.jpg
              shrink orient photo.jpg -o upright.jpg --lossless
              shrink montage photos/ --cell 256 -o sheet.jpg
              shrink bench photo.jpg
              shrink serve --root photos/ --budget 256M
            """,
        version: version,
        subcommands: subcommands
    )

    #if Server
    static let subcommands: [any ParsableCommand.Type] = [InfoCommand.self, ThumbnailCommand.self, CropCommand.self, OrientCommand.self,
                                                          MontageCommand.self, BenchCommand.self, ServeCommand.self, SignCommand.self]
    #else
    static let subcommands: [any ParsableCommand.Type] = [InfoCommand.self, ThumbnailCommand.self, CropCommand.self, OrientCommand.self,
                                                          MontageCommand.self, BenchCommand.self]
    #endif

    /// The subcommand named by the first argument, parsed on its own: ArgumentParser's root parse reflects over
    /// every subcommand's options (and looks for completion requests) before it picks one, about 1.5 ms per
    /// process; `thumbnail`, the command batches and scripts run most, skips ArgumentParser altogether
    /// (``ThumbnailCommand/fastParse(_:)``). nil, for the root parse to handle, when the first argument names no
    /// subcommand, asks for help, a version or a completion script, or when the subcommand's own parse fails
    /// (so errors and usage read exactly as the root parse writes them).
    static func fastParse(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        let special: Set<String> = ["-h", "--help", "help", "--version", "--generate-completion-script",
                                    "--experimental-dump-help"]
        guard !rest.contains(where: { special.contains($0) || $0.hasPrefix("--generate-completion-script=") })
        else { return nil }
        if name == ThumbnailCommand.configuration.commandName, let thumbnail = ThumbnailCommand.fastParse(rest) {
            return thumbnail
        }
        guard let command = subcommands.first(where: { $0.configuration.commandName == name }) else { return nil }
        return try? command.parse(rest)
    }

    /// Exit statuses: 0 success, 1 an input failed, 2 a usage error.
    static func main() {
        do {
            var command = try fastParse(Array(CommandLine.arguments.dropFirst())) ?? parseAsRoot()
            // Parsing thousands of paths leaves a megabyte of freed heap; a batch should not carry it.
            HeapUsage.returnFreeMemory()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let text = fullMessage(for: error)
                Terminal.write(text.hasSuffix("\n") ? text : text + "\n", to: STDERR_FILENO)
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
