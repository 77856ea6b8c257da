import Foundation
import ShrinkTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `shrink serve` (the debug CLI that `swift build --build-tests` made; SHRINK_DEBUG_BIN overrides) as a child
/// process on 127.0.0.1, its port read from its "listening on" log line. Killed (SIGKILL) when dropped if still
/// running.
final class ServeProcess: @unchecked Sendable {
    static var binary: String {
        ProcessInfo.processInfo.environment["SHRINK_DEBUG_BIN"] ?? Corpus.projectRoot + "/.build/debug/shrink"
    }

    let process = Process()
    /// The port it listens on.
    private(set) var port = 0
    private let log = Mutex("")

    /// Starts `shrink serve --bind 127.0.0.1:0` with `arguments` (and `environment` over the test's own), and
    /// waits for it to listen.
    init(_ arguments: [String], environment: [String: String] = [:]) async throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.binary),
            "\(Self.binary) is built by swift build --build-tests")
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve", "--bind", "127.0.0.1:0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        stderr.fileHandleForReading.readabilityHandler = { [weak self] h in
            let text = String(decoding: h.availableData, as: UTF8.self)
            self?.log.withLock { $0 += text }
        }
        try process.run()
        var found = 0
        try await waitUntil {
            let text = logText
            if let r = text.range(of: "listening on 127.0.0.1:") {
                found = Int(text[r.upperBound...].prefix(while: { $0.isNumber })) ?? 0
            }
            return found > 0 || !process.isRunning
        }
        port = found
        #expect(port > 0, "the server did not start: \(logText)")
    }

    /// What it wrote to standard error so far.
    var logText: String { log.withLock { $0 } }

    var pid: pid_t { process.processIdentifier }

    /// Sends `signal` and waits for the process to end; its exit status (or the signal's number).
    @discardableResult
    func end(with signal: Int32) -> Int32 {
        kill(pid, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }
}
