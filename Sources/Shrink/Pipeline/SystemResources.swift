#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkSystem
import ShrinkCore

/// What the machine (or the container) gives this process: cores and memory.
package enum SystemResources {
    /// Processors this process may run on (its affinity mask on Linux; online processors elsewhere).
    package static var cores: Int { Int(csys_cpu_count()) }

    /// Physical memory in bytes.
    package static var physicalMemory: Int {
        sysconf(Int32(_SC_PHYS_PAGES)) * sysconf(Int32(_SC_PAGESIZE))
    }

    /// The memory this process may use: the cgroup limit (`memory.max` in cgroup v2,
    /// `memory.limit_in_bytes` in v1) when one is set and below physical memory, else physical memory.
    package static var memoryLimit: Int {
        let physical = physicalMemory
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = firstLine(of: path), let limit = Int(text), limit > 0, limit < physical { return limit }
        }
        return physical
    }

    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(cBuffer: buffer)
        return line.trimmingSuffix()
    }
}

private extension String {
    func trimmingSuffix() -> String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
