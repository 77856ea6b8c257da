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
            92 MiB as RGBA8. Shrink reads the header first, plans, and decodes straight to the target size \
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
              shrink formats
              shrink serve --root photos/ --budget 256M
            """,
        version: version,
        subcommands: subcommands
    )

    #if Server
        static let subcommands: [any ParsableCommand.Type] = [
            InfoCommand.self, ThumbnailCommand.self, CropCommand.self, OrientCommand.self,
            MontageCommand.self, BenchCommand.self, FormatsCommand.self, ServeCommand.self, SignCommand.self,
        ]
    #else
        static let subcommands: [any ParsableCommand.Type] = [
            InfoCommand.self, ThumbnailCommand.self, CropCommand.self, OrientCommand.self,
            MontageCommand.self, BenchCommand.self, FormatsCommand.self,
        ]
    #endif

    /// The subcommand named by the first argument, parsed on its own: ArgumentParser's root parse reflects over
    /// every subcommand's options (and looks for completion requests) before it picks one, a cost paid at every
    /// process's start (BENCHMARKS.md, "Figures behind the code"). nil, for the root parse to handle, when the
    /// first argument names no subcommand, asks for help, a version or a completion script, or when the
    /// subcommand's own parse fails (so errors and usage read exactly as the root parse writes them).
    static func subcommandParse(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first, !asksForHelp(arguments),
            let command = subcommands.first(where: { $0.configuration.commandName == name })
        else { return nil }
        return try? command.parse(Array(arguments.dropFirst()))
    }

    /// `shrink thumbnail …` in the spellings ``ThumbnailJob/fastParse(_:)`` knows, parsed without ArgumentParser
    /// at all (the command batches and scripts run most: it saves ArgumentParser's start-up cost in every
    /// process; BENCHMARKS.md, "Figures behind the code"); nil otherwise.
    static func fastThumbnail(_ arguments: [String]) -> ThumbnailJob? {
        guard arguments.first == ThumbnailCommand.name, !asksForHelp(arguments) else { return nil }
        return ThumbnailJob.fastParse(Array(arguments.dropFirst()))
    }

    /// True when `arguments` ask ArgumentParser for help, a version or a completion script. (A `switch`, not a
    /// `Set`: the first use of a generic type costs a runtime type lookup at start-up.)
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.dropFirst().contains { argument in
            switch argument {
            case "-h", "--help", "help", "--version", "--generate-completion-script", "--experimental-dump-help": true
            default: argument.hasPrefix("--generate-completion-script=")
            }
        }
    }

    /// Exit statuses: 0 success, 1 an input failed, 2 a usage error.
    static func main() {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let job = fastThumbnail(arguments) {
                HeapUsage.returnFreeMemory()
                try job.run()
                return
            }
            var command = try subcommandParse(arguments) ?? parseAsRoot()
            // Parsing a long command line (thousands of paths) leaves freed heap behind; a batch should not carry
            // it (BENCHMARKS.md, "Figures behind the code").
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
