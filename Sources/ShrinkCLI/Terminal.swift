#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Serialised output for concurrent workers: whole lines to stdout/stderr, and a progress bar on stderr
/// when it is a terminal.
final class Terminal: Sendable {
    private let state = Mutex<(done: Int, barShown: Bool)>((0, false))
    let total: Int
    let showsProgress: Bool

    init(total: Int, progress: Bool) {
        self.total = total
        showsProgress = progress && total > 1 && isatty(STDERR_FILENO) == 1
    }

    /// Prints `shrink: message` on stderr (for code outside a batch).
    static func printError(_ message: String) {
        write("shrink: \(message)\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to file descriptor `fd` (unbuffered, so concurrent lines never interleave
    /// mid-line when each call holds the lock).
    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    func out(_ line: String) { emit(line, to: STDOUT_FILENO) }
    func err(_ line: String) { emit(line, to: STDERR_FILENO) }

    /// Counts one finished item and redraws the bar.
    func tick() {
        state.withLock { s in
            s.done += 1
            guard showsProgress else { return }
            let width = 30, filled = width * s.done / max(total, 1)
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            Self.write("\r[\(bar)] \(s.done)/\(total)", to: STDERR_FILENO)
            s.barShown = true
            if s.done == total {
                Self.write("\n", to: STDERR_FILENO)
                s.barShown = false
            }
        }
    }

    private func emit(_ line: String, to fd: Int32) {
        state.withLock { s in
            if s.barShown {
                Self.write("\r\u{1B}[K", to: STDERR_FILENO)
            }
            Self.write(line + "\n", to: fd)
        }
    }
}

// At file scope `write` is libc's, not Terminal.write.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
