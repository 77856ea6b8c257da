import Shrink

/// Turns command-line inputs into image paths: files as given, directories as their JPEG and PNG files
/// (by extension, sorted by name, not recursive). A directory without any stays as it is, so that opening it
/// fails with an error naming it instead of the input vanishing silently.
enum InputFiles {
    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    static func expand(_ inputs: [String]) -> [String] {
        inputs.flatMap { input -> [String] in
            guard FileOutput.isDirectory(input), let all = FileOutput.names(inDirectory: input) else { return [input] }
            let names = all.filter { name in
                guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
                return extensions.contains(name[name.index(after: dot)...].lowercased())
            }
            let base = input.hasSuffix("/") ? String(input.dropLast()) : input
            return names.isEmpty ? [input] : names.sorted().map { "\(base)/\($0)" }
        }
    }
}
