/// Reads settings from a process environment: each setting under the first of its names that is set (Shrink's
/// before imgproxy's), remembering which of imgproxy's names were read (the start-up summary lists them).
struct EnvironmentReader {
    let environment: [String: String]
    /// The `IMGPROXY_` names read so far, in the order read.
    private(set) var imgproxyNames: [String] = []

    init(_ environment: [String: String]) { self.environment = environment }

    /// The name and value of the first of `names` that is set; nil when none is.
    mutating func value(_ names: [String]) -> (name: String, value: String)? {
        guard let name = names.first(where: { environment[$0] != nil }), let v = environment[name] else { return nil }
        if name.hasPrefix("IMGPROXY_") { imgproxyNames.append(name) }
        return (name, v)
    }

    /// The value of `name`, whoever's it is.
    subscript(name: String) -> String? { environment[name] }
}
