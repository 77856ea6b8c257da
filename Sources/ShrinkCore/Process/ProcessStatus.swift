#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's threads and resident memory, from `/proc/self/status` (zeros where there is no /proc).
package struct ProcessStatus: Sendable {
    /// Threads now (`Threads:`).
    package var threads = 0
    /// Resident bytes now (`VmRSS:`) and the peak so far (`VmHWM:`).
    package var residentBytes = 0
    package var peakResidentBytes = 0

    package static func read() -> ProcessStatus {
        var status = ProcessStatus()
        guard let file = fopen("/proc/self/status", "r") else { return status }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cBuffer: line)
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard parts.count >= 2, let value = Int(parts[1]) else { continue }
            switch parts[0] {
            case "Threads:": status.threads = value
            case "VmRSS:": status.residentBytes = value * 1024
            case "VmHWM:": status.peakResidentBytes = value * 1024
            default: break
            }
        }
        return status
    }
}
