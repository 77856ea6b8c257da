#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore

/// Loads a file by mapping it read-only. Its identity is the file's canonical path (symbolic links, `.` and
/// `..` resolved, so two spellings of one file are one image) with its size, modification time and inode,
/// so an edited or replaced file is a new image to every cache.
public struct FileLoader: DataLoading {
    /// The file.
    public let path: String

    /// A loader of the file at `path` (nothing is opened until the pipeline asks).
    public init(path: String) { self.path = path }

    public var name: String { path }

    /// `file:CANONICAL_PATH#SIZE-MTIME_NS-INODE`; fails with `.fileNotFound` when the file cannot be examined.
    public func identity() throws(ImageError) -> String {
        // Resolved first, then examined: the size, time and inode are the file the path names now.
        let resolved = Self.canonicalPath(path)
        var st = stat()
        guard stat(resolved, &st) == 0 else {
            throw ImageError(.fileNotFound, "\(path): cannot open", cause: String(cString: strerror(errno)), name: path)
        }
        let mtime = Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)
        return "file:\(resolved)#\(st.st_size)-\(mtime)-\(st.st_ino)"
    }

    /// `path` with symbolic links, `.`, `..` and repeated slashes resolved (`realpath`), or as given when it
    /// cannot be resolved.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The file, mapped.
    public func load() async throws(ImageError) -> ImageBytes {
        try ImageBytes(mapping: path)
    }

    public var loadsImmediately: Bool { true }

    /// The mapping, made at once (the pipeline calls this on a decode thread).
    public func loadImmediately() throws(ImageError) -> ImageBytes? {
        try ImageBytes(mapping: path)
    }
}
