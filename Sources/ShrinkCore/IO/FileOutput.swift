#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes encoded images to files, and creates output directories.
package enum FileOutput {
    /// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a reader
    /// never sees a half-written file. The temporary file is locked (`flock`) until it has its name, so a sweeper can
    /// tell an abandoned one (``isAbandoned(_:)``) from one being written. Fails with `.io` naming the path.
    package static func write(_ bytes: [UInt8], to path: String) throws(ImageError) {
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImageError(.io, "\(path): cannot create", cause: errnoText(), name: path) }
        _ = flock(fd, LOCK_EX)
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = posixWrite(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += n
            }
            return true
        }
        let error = ok ? nil : errnoText()
        guard ok, rename(temporary, path) == 0 else {
            let cause = error ?? errnoText()
            close(fd)
            unlink(temporary)
            throw ImageError(.io, "\(path): cannot write", cause: cause, name: path)
        }
        // Some file systems report a failed write only at close (the lock is held through the rename, until here).
        guard close(fd) == 0 else {
            let cause = errnoText()
            unlink(path)
            throw ImageError(.io, "\(path): cannot write", cause: cause, name: path)
        }
    }

    /// True when no process holds the lock of the temporary file at `path` (``write(_:to:)`` holds it until the rename):
    /// its writer ended without finishing, however its process id has been reused since.
    package static func isAbandoned(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// Creates `path` and its missing parents as directories; an existing directory is fine.
    package static func createDirectory(_ path: String) throws(ImageError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw ImageError(.io, "\(path): cannot create directory", cause: errnoText(), name: path)
            }
        }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw ImageError(.io, "\(path): exists and is not a directory", name: path)
        }
    }

    /// The names in directory `path` (without `.` and `..`, unsorted), or nil when it cannot be read.
    package static func names(inDirectory path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(cBytes: raw)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// True when `path` names an existing directory.
    package static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    private static func errnoText() -> String {
        let code = errno
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

// At file scope `write` is libc's, not FileOutput.write.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
