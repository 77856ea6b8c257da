#if Server
    import ArgumentParser
    import Shrink
    import ShrinkServer
    import ShrinkServerURL

    /// `shrink sign`: prints a signed server URL path for options and a source, with the keys the server uses.
    struct SignCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Print a signed URL path for `shrink serve` (imgproxy's scheme).",
            discussion: """
                Signs with the first pair of SHRINK_KEY / SHRINK_SALT (hex), as the server verifies; without them \
                prints an `insecure` path. The source is written plain (plain/SOURCE@EXT), percent-encoding what a \
                path cannot hold, or Base64url with --base64.

                Example:
                  SHRINK_KEY=736563726574 SHRINK_SALT=68656c6c6f shrink sign rs:fill:300:300 local:///cat.jpg --ext webp
                """)

        @Argument(help: "Processing options, slash-separated (rs:fit:400:400/q:80); `-` for none.")
        var options: String

        @Argument(help: "The source: local:///PATH or http(s)://…")
        var source: String

        @Option(
            help: ArgumentHelp("Output extension (\(OutputExtensions.formatNames)); none keeps the server's choice."))
        var ext: String?

        @Flag(help: "Encode the source as Base64url instead of plain/.")
        var base64 = false

        @Option(help: "Prefix printed before the path (http://127.0.0.1:8080).")
        var base: String = ""

        func run() throws {
            let env = ProcessInfoEnvironment.current
            let keys: SigningKeys
            do {
                keys = try SigningKeys(
                    hexKeys: env["SHRINK_KEY"] ?? "", hexSalts: env["SHRINK_SALT"] ?? "",
                    signatureBytes: Int(env["SHRINK_SIGNATURE_SIZE"] ?? "") ?? 32)
            } catch {
                throw ValidationError(error.description)
            }
            let path = SignedPath.path(options: options == "-" ? "" : options, source: source, ext: ext, base64: base64)
            print(base + "/" + keys.sign(path) + path)
        }
    }
#endif
