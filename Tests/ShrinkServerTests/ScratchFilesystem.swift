import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted for one test at a new temporary directory, unmounted (lazily) and removed when dropped.
/// Mounting needs root, as `make test` runs; without it the test fails saying so.
final class ScratchFilesystem {
    /// Where it is mounted.
    let path: String

    /// Mounts a tmpfs of `kibibytes` (a whole number of pages).
    init(kibibytes: Int) throws {
        path = NSTemporaryDirectory() + "shrink-fs-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.run(["mount", "-t", "tmpfs", "-o", "size=\(kibibytes)k,mode=0755", "tmpfs", path])
    }

    /// Makes it read-only (what a disk remounted after errors, or a read-only volume, looks like).
    func remountReadOnly() throws {
        try Self.run(["mount", "-o", "remount,ro", path])
    }

    deinit {
        try? Self.run(["umount", "-l", path])
        rmdir(path)
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(
                description: "\(arguments.joined(separator: " ")) failed (needs root, as make test runs): \(text)")
        }
    }
}
