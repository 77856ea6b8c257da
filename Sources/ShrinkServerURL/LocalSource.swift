#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves `local:///…` sources under a root directory: the path (already percent-decoded) is joined to the
/// root, resolved with `realpath` (every `..` and symlink followed), and accepted only when the result is the
/// root or lies under it component-wise — so `..`, `%2e%2e`, encoded slashes and symlinks pointing out of
/// the root are all refused, whatever their spelling. A component starting with `.` (a dotfile, a hidden
/// directory, the gallery's upload temporaries, `.` and `..` themselves), asked for or reached through a symlink,
/// is refused too: what the gallery hides is not served.
package struct LocalSource: Sendable {
    /// The root, resolved once.
    package let root: String

    /// Fails with a ``ConfigurationError`` when `root` does not exist or is not a directory.
    package init(root: String) throws(ConfigurationError) {
        guard let resolved = Self.realpath(root) else { throw ConfigurationError("local root \(root) does not exist") }
        var st = stat()
        guard stat(resolved, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw ConfigurationError("local root \(root) is not a directory")
        }
        self.root = resolved
    }

    /// The file `source` (`local:///a/b.jpg`) names under the root. 403 when it resolves outside the root,
    /// 404 when it does not exist or is not a regular file, 400 for a malformed path.
    package func resolve(_ source: String) throws(RequestError) -> String {
        guard source.hasPrefix("local://") else { throw RequestError.invalidURL("not a local:// source") }
        let path = source.dropFirst("local://".count)
        guard path.first == "/" else {
            throw RequestError.invalidURL("a local source is local:///PATH (three slashes)")
        }
        return try resolve(path: String(path), kind: S_IFREG)
    }

    /// The directory `path` (`/`, `/a/b`, relative to the root, already percent-decoded) names under the root:
    /// the same checks as ``resolve(_:)``, for a directory.
    package func directory(_ path: String) throws(RequestError) -> String {
        try resolve(path: path.hasPrefix("/") ? path : "/" + path, kind: S_IFDIR)
    }

    private func resolve(path: String, kind: mode_t) throws(RequestError) -> String {
        guard !path.utf8.contains(0) else { throw RequestError.invalidURL("the local path contains a NUL byte") }
        guard path.utf8.count < 4096 else { throw RequestError.invalidURL("the local path is too long") }
        // Lexically first: a path that climbs above the root, or names a hidden file, is refused whether or not its
        // target exists.
        var depth = 0
        for component in path.split(separator: "/") where component != "." {
            depth += component == ".." ? -1 : 1
            guard depth >= 0 else { throw RequestError(403, "\(path): climbs out of the local root") }
        }
        guard !Self.isHidden(Substring(path)) else {
            throw RequestError(403, "\(path): names a hidden file (a component starting with .)")
        }
        let joined = root + (root.hasSuffix("/") ? String(path.dropFirst()) : path)
        guard let resolved = Self.realpath(joined) else {
            throw RequestError(404, "\(path): no such file under the local root")
        }
        guard resolved == root || resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw RequestError(403, "\(path): resolves outside the local root")
        }
        guard !Self.isHidden(resolved.dropFirst(root.count)) else {
            throw RequestError(403, "\(path): resolves to a hidden file (a component starting with .)")
        }
        var st = stat()
        guard stat(resolved, &st) == 0, (st.st_mode & S_IFMT) == kind else {
            throw RequestError(404, "\(path): not a \(kind == S_IFDIR ? "directory" : "regular file")")
        }
        return resolved
    }

    /// True when a component of `path` starts with `.` (its bytes, as the file system sees them: a combining mark
    /// after the dot does not hide it).
    private static func isHidden(_ path: Substring) -> Bool {
        path.utf8.split(separator: UInt8(ascii: "/")).contains { $0.first == UInt8(ascii: ".") }
    }

    private static func realpath(_ path: String) -> String? {
        guard let p = Glibc.realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
