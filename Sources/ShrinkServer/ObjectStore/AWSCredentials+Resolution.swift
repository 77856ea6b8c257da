import Foundation
import ShrinkServerURL

extension AWSCredentials {
    /// The credentials the AWS tools would find, in their order: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`
    /// (with `AWS_SESSION_TOKEN`, or the older `AWS_SECURITY_TOKEN`) from `environment`; else the profile
    /// `AWS_PROFILE` (or `AWS_DEFAULT_PROFILE`, else `default`) of the shared credentials file
    /// (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`). nil when neither has any; fails when a profile
    /// is named but absent, or has a key without its secret. Instance and container metadata are not asked
    /// (they would be network requests at start).
    package static func resolve(
        environment: [String: String], read: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
    ) throws(ConfigurationError) -> AWSCredentials? {
        let nonEmpty = { (name: String) -> String? in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let key = nonEmpty("AWS_ACCESS_KEY_ID") {
            guard let secret = nonEmpty("AWS_SECRET_ACCESS_KEY") else {
                throw ConfigurationError("AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY")
            }
            return AWSCredentials(
                accessKeyID: key, secretAccessKey: secret,
                sessionToken: nonEmpty("AWS_SESSION_TOKEN") ?? nonEmpty("AWS_SECURITY_TOKEN"))
        }
        let named = nonEmpty("AWS_PROFILE") ?? nonEmpty("AWS_DEFAULT_PROFILE")
        let profile = named ?? "default"
        let path = nonEmpty("AWS_SHARED_CREDENTIALS_FILE") ?? (nonEmpty("HOME") ?? "") + "/.aws/credentials"
        guard let text = read(path) else {
            if let named { throw ConfigurationError("AWS profile \(named): no credentials file at \(path)") }
            return nil
        }
        guard let values = sections(of: text)[profile] else {
            if let named { throw ConfigurationError("AWS profile \(named) is not in \(path)") }
            return nil
        }
        guard let key = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] else {
            throw ConfigurationError(
                "AWS profile \(profile) in \(path) lacks aws_access_key_id or aws_secret_access_key")
        }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }

    /// An INI file's sections (`[name]`) as key → value (`key = value`, names lowercased, both trimmed; `#` and
    /// `;` lines are comments; a later key wins).
    static func sections(of text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                current = name
                if sections[name] == nil { sections[name] = [:] }
            } else if let current, let equals = line.firstIndex(where: { $0 == "=" || $0 == ":" }) {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                sections[current, default: [:]][key] = line[line.index(after: equals)...]
                    .trimmingCharacters(in: .whitespaces)
            }
        }
        return sections
    }
}
