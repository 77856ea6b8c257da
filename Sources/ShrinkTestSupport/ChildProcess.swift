import Foundation
import Synchronization

/// Runs a child process for a test without holding a thread of Swift's cooperative pool while it runs: the
/// pool has one thread per core, and a test blocked in `waitUntilExit` there starves every task of the suite
/// (pipeline tests waited 60 s for their decodes to start while CLI tests held both threads).
public enum ChildProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let out: String
        public let err: String
        /// True when a signal ended the child.
        public let signalled: Bool
    }

    /// Runs `executable` with `arguments` (and `environment` added to this process's), reading its output to
    /// the end, on a thread of its own.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:])
        async throws -> Result
    {
        let (status, out, err, signalled) = try await raw(executable, arguments, environment: environment)
        return Result(
            status: status, out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self),
            signalled: signalled)
    }

    /// The standard output of `executable` as bytes (for binary output such as `djpeg -ppm`).
    public static func bytes(_ executable: String, _ arguments: [String]) async throws -> [UInt8] {
        [UInt8](try await raw(executable, arguments, environment: [:]).1)
    }

    private static func raw(_ executable: String, _ arguments: [String], environment: [String: String]) async throws
        -> (Int32, Data, Data, Bool)
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: executable)
                p.arguments = arguments
                if !environment.isEmpty {
                    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                }
                let out = Pipe(), err = Pipe()
                p.standardOutput = out
                p.standardError = err
                do {
                    try p.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                // Both pipes drained at once, so a child filling one while we read the other cannot stall.
                let errData = Mutex(Data())
                let errDone = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    let data = err.fileHandleForReading.readDataToEndOfFile()
                    errData.withLock { $0 = data }
                    errDone.signal()
                }
                let o = out.fileHandleForReading.readDataToEndOfFile()
                errDone.wait()
                p.waitUntilExit()
                continuation.resume(
                    returning: (p.terminationStatus, o, errData.withLock { $0 }, p.terminationReason == .uncaughtSignal)
                )
            }
        }
    }
}
