import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// The C libraries loaded on first use stay out of a process that does not need them, and are loaded by the one
/// that does: the CLI run with glibc's loader trace (`LD_DEBUG=files,bindings`), which names every library a process
/// maps, linked or opened with dlopen, and every symbol binding.
@Suite struct LibraryLoadingTests {
    /// Every library Shrink loads on first use (`CShrinkLoad`), by soname; libcrypto is one too, but a build with the
    /// server links libcurl, which links it.
    static let loadedOnFirstUse: Set<String> = [
        "libwebp.so.7", "libwebpdemux.so.2", "libwebpmux.so.3", "liblcms2.so.2", "libcgif.so.0", "libturbojpeg.so.0",
        "libheif.so.1", "libde265.so.0", "libdav1d.so.6", "libtiff.so.6", "libjxl.so.0.7", "libavif.so.15",
    ]

    /// The sonames of the libraries one run of the CLI with `args` mapped. Also checks that no library bound a symbol
    /// to the binary's functions that stand in for a library's (`SHRINK_FORWARD`, hidden for this): a library loaded
    /// later that links the same one (libwebpmux links libwebp), or the library calling its own functions, must bind
    /// to the library itself.
    func mapped(_ args: [String]) async throws -> Set<String> {
        let run = try await ChildProcess.run(CLITests.binary, args, environment: ["LD_DEBUG": "files,bindings"])
        #expect(run.status == 0, "\(args): \(run.err.suffix(400))")
        var names = Set<String>()
        var boundToForwarders = Set<String>()
        for line in run.err.split(separator: "\n") {
            if let start = line.range(of: "file=") {
                let rest = line[start.upperBound...]
                names.insert(String(rest.prefix { $0 != " " && $0 != "\t" }))
            } else if line.contains("binding file /"), !line.contains("binding file \(CLITests.binary) "),
                line.contains(" to \(CLITests.binary) "), let quote = line.firstIndex(of: "`")
            {
                let symbol = String(line[line.index(after: quote)...].prefix { $0 != "'" })
                if ["WebP", "cms", "cgif_", "tj"].contains(where: symbol.hasPrefix) {
                    boundToForwarders.insert(symbol)
                }
            }
        }
        #expect(
            boundToForwarders.isEmpty, "\(args[0]) \(args.last!): bound to Shrink's forwarders: \(boundToForwarders)")
        return names
    }

    @Test func eachLibraryOnlyWhenUsed() async throws {
        let dir = NSTemporaryDirectory() + "shrink-libs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = dir + "/photo.jpg"
        try FileOutput.write(
            try TestImages.jpeg(TestImages.pattern(width: 320, height: 240), chroma444: false, orientation: 6),
            to: photo)

        // An untagged JPEG to a JPEG thumbnail: libjpeg and the C runtime, nothing loaded on first use.
        let plain = try await mapped(["thumbnail", photo, "--size", "100", "-o", dir + "/t.jpg"])
        #expect(plain.contains("libjpeg.so.62"))
        #expect(plain.isDisjoint(with: Self.loadedOnFirstUse), "\(plain.intersection(Self.loadedOnFirstUse))")

        // Each use loads its libraries and no other.
        let uses: [([String], Set<String>)] = [
            (
                ["thumbnail", photo, "--size", "100", "-o", dir + "/t.webp"],
                ["libwebp.so.7", "libwebpdemux.so.2", "libwebpmux.so.3"]
            ),
            (
                ["thumbnail", dir + "/t.webp", "--size", "50", "-o", dir + "/u.jpg"],
                ["libwebp.so.7", "libwebpdemux.so.2", "libwebpmux.so.3"]
            ),
            (["thumbnail", photo, "--size", "100", "-o", dir + "/t.gif"], ["libcgif.so.0"]),
            (
                ["thumbnail", photo, "--size", "100", "-o", dir + "/p3.jpg", "--colour", "display-p3"],
                ["liblcms2.so.2"]
            ),
            (["orient", photo, "-o", dir + "/o.jpg", "--lossless", "--trim"], ["libturbojpeg.so.0"]),
        ]
        for (args, wanted) in uses {
            let libraries = try await mapped(args)
            #expect(
                libraries.intersection(Self.loadedOnFirstUse) == wanted,
                "\(args[0]) \(args.last!): \(libraries.intersection(Self.loadedOnFirstUse))")
        }
    }

    /// A library that does not load is an `.unsupportedFeature` naming it, its Debian package and the loader's reason,
    /// and whatever does not need it still works: the CLI run with `LD_LIBRARY_PATH` at a folder of empty files named
    /// as the libraries, which dlopen finds first and refuses ("file too short").
    @Test func aLibraryThatDoesNotLoadIsNamed() async throws {
        let dir = NSTemporaryDirectory() + "shrink-missing-\(UUID().uuidString)"
        let libraries = dir + "/lib"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for soname in Self.loadedOnFirstUse {
            #expect(FileManager.default.createFile(atPath: libraries + "/" + soname, contents: Data()))
        }
        let photo = dir + "/photo.jpg"
        try FileOutput.write(
            try TestImages.jpeg(TestImages.pattern(width: 320, height: 240), chroma444: false, orientation: 6),
            to: photo)
        // Inputs made while every library loads.
        for output in ["in.webp", "in.jxl", "in.avif"] {
            let made = try await ChildProcess.run(
                CLITests.binary, ["thumbnail", photo, "--size", "64", "-o", dir + "/" + output])
            #expect(made.status == 0, "\(output): \(made.err.suffix(300))")
        }
        try FileOutput.write(Self.grayTIFF(width: 16, height: 8), to: dir + "/in.tif")
        let inherited = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? ""
        let missing = ["LD_LIBRARY_PATH": libraries + inherited, "SWIFT_BACKTRACE": "enable=no"]

        let plain = try await ChildProcess.run(
            CLITests.binary, ["thumbnail", photo, "--size", "100", "-o", dir + "/t.jpg"], environment: missing)
        #expect(plain.status == 0, "\(plain.err.suffix(300))")

        let webp = "WebP needs libwebp (Debian: libwebp7, libwebpdemux2, libwebpmux3)"
        let jxl = "JPEG XL needs libjxl (Debian: libjxl0.7)"
        let refusals: [([String], String)] = [
            (["thumbnail", photo, "--size", "100", "-o", dir + "/t.webp"], webp),
            (
                ["thumbnail", dir + "/in.webp", "--size", "50", "-o", dir + "/u.jpg"],
                webp
            ),
            (["thumbnail", photo, "--size", "100", "-o", dir + "/t.gif"], "writing GIF needs cgif (Debian: libcgif0)"),
            (
                ["thumbnail", photo, "--size", "100", "-o", dir + "/t.jxl"],
                jxl
            ),
            (
                ["thumbnail", dir + "/in.jxl", "--size", "50", "-o", dir + "/v.jpg"],
                jxl
            ),
            (
                ["thumbnail", photo, "--size", "100", "-o", dir + "/t.avif"],
                "writing AVIF needs libavif (Debian: libavif15)"
            ),
            (
                ["thumbnail", dir + "/in.avif", "--size", "50", "-o", dir + "/x.jpg"],
                "AV1-coded images need dav1d (Debian: libdav1d6)"
            ),
            // Colour management cannot run without Little CMS: the process stops, saying why.
            (
                ["thumbnail", photo, "--size", "100", "-o", dir + "/p3.jpg", "--colour", "display-p3"],
                "colour management needs Little CMS (Debian: liblcms2-2)"
            ),
            (
                ["thumbnail", dir + "/in.tif", "--size", "8", "-o", dir + "/w.jpg"],
                "TIFF images need libtiff (Debian: libtiff6)"
            ),
            (
                ["orient", photo, "-o", dir + "/o.jpg", "--lossless", "--trim"],
                "lossless transforms need TurboJPEG (Debian: libturbojpeg0)"
            ),
        ]
        for (args, message) in refusals {
            let run = try await ChildProcess.run(CLITests.binary, args, environment: missing)
            #expect(run.status != 0, "\(args): succeeded")
            // An error the CLI reports, except for colour management, which stops the process.
            #expect(run.signalled == message.hasPrefix("colour management"), "\(args): \(run.err.suffix(400))")
            #expect(run.err.contains(message + ", which did not load: "), "\(args): \(run.err.suffix(400))")
            // Said once, as the error itself: not as the cause of another ("not a TIFF libtiff can read").
            #expect(run.err.components(separatedBy: "did not load").count == 2, "\(args): \(run.err.suffix(400))")
            #expect(!run.err.contains("can read"), "\(args): \(run.err.suffix(400))")
            #expect(run.err.contains("file too short"), "\(args): \(run.err.suffix(400))")
        }

        // `formats` lists the writers that cannot be loaded as not available, and the others by their versions.
        let formats = try await ChildProcess.run(CLITests.binary, ["formats"], environment: missing)
        #expect(formats.status == 0, "\(formats.err.suffix(300))")
        let rows = Dictionary(
            formats.out.split(separator: "\n").map { (String($0.prefix { $0 != " " }), String($0)) },
            uniquingKeysWith: { a, _ in a })
        for name in ["webp", "gif", "avif", "jxl"] {
            #expect(rows[name]?.contains("(not available: ") == true, "\(name): \(rows[name] ?? "no row")")
            #expect(rows[name]?.contains("did not load: ") == true, "\(name): \(rows[name] ?? "no row")")
        }
        for name in ["jpeg", "png"] {
            #expect(rows[name].map { !$0.contains("not available") } == true, "\(name): \(rows[name] ?? "no row")")
        }
    }

    /// A baseline TIFF: one strip of 8-bit gray, uncompressed, a gradient.
    static func grayTIFF(width: Int, height: Int) -> [UInt8] {
        var tiff = TestRAW()
        let pixels = tiff.data((0..<width * height).map { UInt8(truncatingIfNeeded: $0 * 255 / (width * height)) })
        let ifd0 = tiff.ifd([
            (256, .short(width)), (257, .short(height)), (258, .short(8)), (259, .short(1)), (262, .short(1)),
            (273, .long(pixels)), (277, .short(1)), (278, .short(height)), (279, .long(width * height)),
        ])
        return tiff.finish(ifd0: ifd0)
    }
}
