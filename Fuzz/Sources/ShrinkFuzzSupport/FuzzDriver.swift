#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkFuzzDriver

/// Runs one harness under libFuzzer: `run` hands the process's command line to `LLVMFuzzerRunDriver` and calls
/// the harness with each input's bytes (a copy, so the harness may keep them).
public enum FuzzDriver {
    /// The harness of this process, set once before libFuzzer starts calling back.
    nonisolated(unsafe) private static var harness: ([UInt8]) -> Void = { _ in }

    /// Fuzzes (or, given files, replays) `harness` and exits with libFuzzer's status.
    public static func run(_ harness: @escaping ([UInt8]) -> Void) -> Never {
        Self.harness = harness
        let status = ShrinkFuzzRunDriver(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
            FuzzDriver.harness(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        }
        exit(status)
    }
}
