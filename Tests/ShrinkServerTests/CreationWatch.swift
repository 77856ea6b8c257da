import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Names of files created in one directory, as they are created (inotify), for a test to act the moment a
/// file appears.
final class CreationWatch: @unchecked Sendable {
    private let fd: Int32

    init(directory: String) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, directory, UInt32(IN_CREATE)) >= 0 else { throw POSIXError(.EIO) }
    }

    /// The next name created whose name contains `fragment`, waiting at most `seconds`; nil when none came.
    func next(containing fragment: String, within seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            var at = 0
            // struct inotify_event: wd, mask, cookie (32 bits each), len, then len bytes of NUL-padded name.
            while n > 0 && at + 16 <= n {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)) }
                let name = String(decoding: buffer[(at + 16)..<(at + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
                at += 16 + length
                if name.contains(fragment) { return name }
            }
        }
        return nil
    }

    deinit { close(fd) }
}
