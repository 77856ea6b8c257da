import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns command-line inputs into image paths: files as given, directories as the files in them that a
/// registered codec reads, by extension (so a damaged `.jpg` is reported, not skipped) or by their first
/// bytes (an image under any other name; sorted by name, hidden files skipped, not recursive). A directory without any stays as it is, so that opening it fails with an error
/// naming it instead of the input vanishing silently.
enum InputFiles {
    static func expand(_ inputs: [String]) -> [String] {
        inputs.flatMap { input -> [String] in
            guard FileOutput.isDirectory(input), let all = FileOutput.names(inDirectory: input) else { return [input] }
            let base = input.hasSuffix("/") ? String(input.dropLast()) : input
            let names = all.filter { name in
                !name.hasPrefix(".")
                    && (CodecRegistry.standard.format(forPath: name) != nil || isImage("\(base)/\(name)"))
            }
            return names.isEmpty ? [input] : names.sorted().map { "\(base)/\($0)" }
        }
    }

    /// True when `path` is a regular file whose first 32 bytes a registered codec recognises (one open and
    /// one read; FIFOs and devices are not opened).
    static func isImage(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 32)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 32) }
        guard n > 0 else { return false }
        return head.withUnsafeBytes {
            CodecRegistry.standard.codec(sniffing: UnsafeRawBufferPointer(rebasing: $0.prefix(n))) != nil
        }
    }
}
