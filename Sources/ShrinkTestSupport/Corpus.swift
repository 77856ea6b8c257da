#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shared test corpus at `../shared/corpus` beside the project root, and its MANIFEST.
public enum Corpus {
    /// One MANIFEST row.
    public struct Entry: Sendable {
        public let path: String
        public let expected: String
        public let format: String
        public let features: String

        /// `(stored, displayed)` sizes for files that decode, from the `expected` column.
        public var decodedSizes: (stored: (Int, Int), displayed: (Int, Int))? {
            guard expected.hasPrefix("decodes ") else { return nil }
            let sizes = expected.split(whereSeparator: { $0 == " " || $0 == ";" }).compactMap(Self.size)
            guard let stored = sizes.first else { return nil }
            return (stored, sizes.count > 1 ? sizes[1] : stored)
        }

        private static func size(_ word: Substring) -> (Int, Int)? {
            let parts = word.split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
            return (w, h)
        }
    }

    /// The corpus directory, or nil when it is absent (a user's fresh clone): `SHRINK_CORPUS` when set (a
    /// directory without a MANIFEST.tsv, such as `SHRINK_CORPUS=none`, runs the tests as a clone without the
    /// corpus would), else ../shared/corpus beside the project root.
    public static let root: String? = {
        let path: String
        if let chosen = getenv("SHRINK_CORPUS") {
            path = String(cString: chosen)
        } else {
            // …/Sources/ShrinkTestSupport/Corpus.swift → project root → ../shared/corpus
            var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
            parts.removeLast(3)
            path = parts.joined(separator: "/") + "/../shared/corpus"
        }
        return access(path + "/MANIFEST.tsv", R_OK) == 0 ? path : nil
    }()

    /// Whether the corpus is here (corpus tests carry the `.needsCorpus` trait, which reads it).
    public static var isPresent: Bool { root != nil }

    /// The project root (where Package.swift is).
    public static let projectRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// Absolute path of a corpus file.
    public static func path(_ relative: String) -> String { (root ?? "") + "/" + relative }

    /// Every MANIFEST row (empty when the corpus is absent).
    public static let entries: [Entry] = {
        guard let root, let text = readText(root + "/MANIFEST.tsv") else { return [] }
        var rows: [Entry] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 8 else { continue }
            rows.append(Entry(path: f[0], expected: f[5], format: f[6], features: f[7]))
        }
        return rows
    }()

    /// The contents of a small text file.
    public static func readText(_ path: String) -> String? {
        readBytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Raw bytes of a file.
    public static func readBytes(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
