#if canImport(Glibc)
    import Glibc
#endif
import Shrink

/// `shrink-sweep --size N --format jpg|png FILE...`: what `shrink thumbnail FILE --size N -o OUT.jpg|png` does to
/// each file (the pixel format an output takes, the encoder, colour management), built with the fuzz harnesses'
/// sanitizers so scripts/check-sanitizers sweeps the corpus without a second sanitizer build. Each failure is
/// one line on stderr; exits 1 when any file failed (0 otherwise); a sanitizer report ends the process.
enum Sweep {
    static func run(_ commandLine: [String]) -> Never {
        var arguments = commandLine
        var size = 160, png = false
        while arguments.count >= 2, arguments[0].hasPrefix("--") {
            switch arguments[0] {
            case "--size": size = Int(arguments[1]) ?? size
            case "--format": png = arguments[1] == "png"
            default: break
            }
            arguments.removeFirst(2)
        }
        let encoder: any ImageEncoding = png ? PNGEncoder() : JPEGEncoder()
        let options = ThumbnailOptions(pixelFormat: png ? .native : .exactly(.yuv420))
        var failed = false
        for path in arguments {
            do {
                let source = try ImageSource(path: path)
                let image = try source.thumbnail(maxPixelSize: size, options: options)
                _ = try image.encoded(as: encoder)
            } catch {
                let line = "shrink-sweep: \(error)\n"
                _ = line.withCString { write(2, $0, strlen($0)) }
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }
}
