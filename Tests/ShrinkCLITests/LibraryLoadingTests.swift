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
}
