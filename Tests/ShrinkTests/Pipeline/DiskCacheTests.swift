import Testing
import Shrink
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DiskCacheTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/shrink-disk-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    static func files(in dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A failed write turns writing off for the pause (later stores are skipped, not tried), then a write is
    /// tried again and, succeeding, turns it back on.
    @Test func aFailedWriteTurnsWritingOffForThePause() async throws {
        let dir = Self.temporaryDirectory()
        let cache = try DiskCache(directory: dir, sizeLimit: 1 << 20, writePause: .milliseconds(300))
        #expect(try cache.store([1, 2, 3], for: "a") && cache.isWriting)
        unlink(dir + "/" + Self.files(in: dir)[0])
        rmdir(dir)
        #expect(throws: ImageError.self) { try cache.store([4, 5, 6], for: "b") }
        #expect(!cache.isWriting)
        mkdir(dir, 0o755)
        #expect(try cache.store([7, 8, 9], for: "c") == false)
        #expect(Self.files(in: dir).isEmpty)
        try await Task.sleep(for: .milliseconds(400))
        #expect(cache.isWriting)
        #expect(try cache.store([7, 8, 9], for: "c") && cache.data(for: "c") == [7, 8, 9])
        let s = cache.statistics
        #expect(s.writes == 2 && s.writeFailures == 1 && s.writesSkipped == 1, "\(s)")
        cache.removeAll()
        rmdir(dir)
    }

    @Test func roundTripAndReopen() throws {
        let dir = Self.temporaryDirectory()
        let cache = try DiskCache(directory: dir, sizeLimit: 1 << 20)
        let payload = (0..<5000).map { UInt8($0 & 0xFF) }
        try cache.store(payload, for: "key-1")
        #expect(cache.data(for: "key-1") == payload)
        #expect(cache.data(for: "key-2") == nil)
        let reopened = try DiskCache(directory: dir, sizeLimit: 1 << 20)
        #expect(reopened.statistics.count == 1)
        #expect(reopened.data(for: "key-1") == payload)
    }

    @Test func damagedEntriesAreDroppedNotServed() throws {
        let dir = Self.temporaryDirectory()
        let cache = try DiskCache(directory: dir, sizeLimit: 1 << 20)
        let payload = [UInt8](repeating: 7, count: 4000)
        for key in ["flip", "cut", "grow"] { try cache.store(payload, for: key) }
        func path(_ key: String) -> String {
            dir + "/" + Self.files(in: dir).first { f in
                // The entry holding `key`: read each file and look for the key bytes.
                let fd = open(dir + "/" + f, O_RDONLY); defer { close(fd) }
                var buf = [UInt8](repeating: 0, count: 64)
                let n = read(fd, &buf, 64)
                return String(decoding: buf[0..<max(0, n)], as: UTF8.self).contains(key)
            }!
        }
        // A flipped payload byte, a truncated file, bytes appended.
        let flip = path("flip"), cut = path("cut"), grow = path("grow")
        var fd = open(flip, O_WRONLY); lseek(fd, 200, SEEK_SET); var b: UInt8 = 8; write(fd, &b, 1); close(fd)
        truncate(cut, 1000)
        fd = open(grow, O_WRONLY | O_APPEND); write(fd, &b, 1); close(fd)
        #expect(cache.data(for: "flip") == nil)
        #expect(cache.data(for: "cut") == nil)
        #expect(cache.data(for: "grow") == nil)
        #expect(cache.statistics.corruptDropped == 3)
        #expect(Self.files(in: dir).isEmpty)
    }

    @Test func evictsLeastRecentlyUsedBeyondTheSizeLimit() throws {
        let dir = Self.temporaryDirectory()
        let cache = try DiskCache(directory: dir, sizeLimit: 10_000)
        let payload = [UInt8](repeating: 1, count: 3000)
        try cache.store(payload, for: "a")
        try cache.store(payload, for: "b")
        try cache.store(payload, for: "c")
        _ = cache.data(for: "a") // a is now the most recent
        // Each entry is 28 header bytes + a 1-byte key + 3000 = 3029 bytes. The fourth makes 12 116 > 10 000, and
        // eviction goes down to 90 % of the limit (9000): b (leaving 9087), then c (6058).
        #expect(cache.statistics.bytes == 3 * 3029)
        try cache.store(payload, for: "d")
        #expect(cache.data(for: "b") == nil)
        #expect(cache.data(for: "c") == nil)
        #expect(cache.data(for: "a") == payload)
        #expect(cache.data(for: "d") == payload)
        #expect(cache.statistics.bytes == 2 * 3029 && cache.statistics.count == 2)
        #expect(cache.statistics.evictions == 2)
    }

    /// A temporary file nobody holds the lock of is a dead writer's, whatever process id its name holds (ids are
    /// reused: here this very process's); one whose writer still holds the lock stays.
    @Test func leftoverTemporaryFilesOfDeadWritersAreRemoved() throws {
        let dir = Self.temporaryDirectory()
        let stale = dir + "/0123456789abcdef.entry.tmp-\(getpid())-1"
        let fd = open(stale, O_WRONLY | O_CREAT, 0o644); write(fd, "half", 4); close(fd)
        let writing = dir + "/fedcba9876543210.entry.tmp-99999999-2"
        let held = open(writing, O_WRONLY | O_CREAT, 0o644); write(held, "half", 4)
        #expect(flock(held, LOCK_EX) == 0)
        defer { close(held) }
        _ = try DiskCache(directory: dir)
        #expect(Self.files(in: dir) == ["fedcba9876543210.entry.tmp-99999999-2"])
    }
}
