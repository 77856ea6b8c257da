#if canImport(Glibc)
    import Glibc
#endif
import Shrink

/// `shrink-sweep --size N --format EXT FILE...`: what `shrink thumbnail FILE --size N -o OUT.EXT` does to each file
/// (EXT an extension of a format the registry writes: jpg, png, webp) (the pixel format an output takes, the encoder, colour management), built with the fuzz harnesses'
/// sanitizers so scripts/check-sanitizers sweeps the corpus without a second sanitizer build. Each failure is
/// one line on stderr; exits 1 when any file failed (0 otherwise); a sanitizer report ends the process.
enum Sweep {
    static func run(_ commandLine: [String]) -> Never {
        var arguments = commandLine
        var size = 160, name = "jpg"
        while arguments.count >= 2, arguments[0].hasPrefix("--") {
            switch arguments[0] {
            case "--size": size = Int(arguments[1]) ?? size
            case "--format": name = arguments[1]
            default: break
            }
            arguments.removeFirst(2)
        }
        // The writer of the format named as `shrink thumbnail --format` names it (an extension), with its defaults;
        // the pixels it takes best, as the CLI decodes them.
        guard
            let codec = CodecRegistry.standard.codecs.first(where: {
                $0.writer != nil && $0.format.fileExtensions.contains(name)
            }), let encoder = codec.writer?.encoder(for: OutputSettings(format: codec.format))
        else {
            let line = "shrink-sweep: no writer for --format \(name)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        let options = ThumbnailOptions(pixelFormat: encoder.preferredPixels)
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
