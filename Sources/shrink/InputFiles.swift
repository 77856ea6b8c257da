#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Shrink

/// Turns command-line inputs into image paths: files as given, directories as their JPEG and PNG files
/// (by extension, sorted by name, not recursive).
enum InputFiles {
    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    static func expand(_ inputs: [String]) -> [String] {
        inputs.flatMap { input -> [String] in
            guard FileOutput.isDirectory(input), let dir = opendir(input) else { return [input] }
            defer { closedir(dir) }
            var names: [String] = []
            while let item = readdir(dir) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                guard !name.hasPrefix("."), let dot = name.lastIndex(of: "."),
                      extensions.contains(name[name.index(after: dot)...].lowercased()) else { continue }
                names.append(name)
            }
            let base = input.hasSuffix("/") ? String(input.dropLast()) : input
            return names.sorted().map { "\(base)/\($0)" }
        }
    }
}
