import Shrink

/// Builds one JSON object on one line, keys in insertion order (no Foundation needed).
struct JSONLine {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: String?) {
        fields.append("\(JSONText.quoted(key)):\(value.map { JSONText.quoted($0) } ?? "null")")
    }

    mutating func add(_ key: String, _ value: Int?) {
        fields.append("\(JSONText.quoted(key)):\(value.map(String.init) ?? "null")")
    }

    mutating func add(_ key: String, _ value: Bool) {
        fields.append("\(JSONText.quoted(key)):\(value)")
    }

    mutating func add(_ key: String, strings: [String]) {
        fields.append("\(JSONText.quoted(key)):[" + strings.map { JSONText.quoted($0) }.joined(separator: ",") + "]")
    }

    mutating func add(_ key: String, integers: [Int]) {
        fields.append("\(JSONText.quoted(key)):[" + integers.map(String.init).joined(separator: ",") + "]")
    }

    mutating func add(_ key: String, object: JSONLine?) {
        fields.append("\(JSONText.quoted(key)):\(object?.text ?? "null")")
    }

    var text: String { "{" + fields.joined(separator: ",") + "}" }
}
