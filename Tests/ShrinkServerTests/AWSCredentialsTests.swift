import Foundation
import ShrinkTestSupport
import Testing

@testable import ShrinkServer
@testable import ShrinkServerURL

/// Credentials found where the AWS tools find them, compared with botocore's own resolution of the same
/// environment and files (instance metadata off: nothing leaves the machine).
@Suite struct AWSCredentialsTests {
    static let file = """
        # a comment
        [default]
        aws_access_key_id = AKIADEFAULTEXAMPLE
        aws_secret_access_key = default/secret+EXAMPLE

        ; another comment
        [other]
        aws_access_key_id=AKIAOTHEREXAMPLE
        aws_secret_access_key =  other/secret
        aws_session_token = FwoGZXIvYXdzEXAMPLE//token=

        [broken]
        aws_access_key_id = AKIABROKEN
        """

    /// botocore's answer for `environment` (its access key, secret and token, or nil).
    static func botocore(_ environment: [String: String]) async throws -> AWSCredentials? {
        let script = """
            import json, botocore.session
            c = botocore.session.Session().get_credentials()
            print(json.dumps(None if c is None else [c.access_key, c.secret_key, c.token]))
            """
        var clean = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") }
        clean.merge(environment) { $1 }
        clean["AWS_EC2_METADATA_DISABLED"] = "true"
        clean["AWS_CONFIG_FILE"] = "/nonexistent/aws-config"
        let run = try await ChildProcess.run(
            "/usr/bin/env", ["-i"] + clean.map { "\($0)=\($1)" } + ["python3", "-c", script])
        #expect(run.status == 0, "botocore (pip install botocore): \(run.err)")
        guard
            let values = try JSONSerialization.jsonObject(with: Data(run.out.utf8), options: .fragmentsAllowed)
                as? [Any]
        else { return nil }
        return AWSCredentials(
            accessKeyID: values[0] as? String ?? "", secretAccessKey: values[1] as? String ?? "",
            sessionToken: values[2] as? String)
    }

    @Test func resolvedAsBotocoreResolvesThem() async throws {
        let path = NSTemporaryDirectory() + "shrink-aws-\(UInt32.random(in: 0 ... .max))"
        try Self.file.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environments: [[String: String]] = [
            ["AWS_SHARED_CREDENTIALS_FILE": path],
            ["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "other"],
            [
                "AWS_SHARED_CREDENTIALS_FILE": path, "AWS_ACCESS_KEY_ID": "AKIAENVEXAMPLE",
                "AWS_SECRET_ACCESS_KEY": "env/secret", "AWS_SESSION_TOKEN": "env-token",
            ],
            ["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_ACCESS_KEY_ID": "AKIAENV2", "AWS_SECRET_ACCESS_KEY": "s2"],
        ]
        for environment in environments {
            let ours = try AWSCredentials.resolve(environment: environment)
            let theirs = try await Self.botocore(environment)
            #expect(ours != nil && ours == theirs, "\(environment): \(String(describing: theirs))")
        }
        #expect(
            try AWSCredentials.resolve(environment: ["AWS_PROFILE": "other", "AWS_SHARED_CREDENTIALS_FILE": path])?
                .sessionToken == "FwoGZXIvYXdzEXAMPLE//token=")
    }

    @Test func missingAndBrokenCredentials() throws {
        let files = ["/creds": AWSCredentialsTests.file]
        let read = { (path: String) in files[path] }
        #expect(try AWSCredentials.resolve(environment: [:], read: read) == nil)
        #expect(try AWSCredentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": "/none"], read: read) == nil)
        for environment: [String: String] in [
            ["AWS_ACCESS_KEY_ID": "AKIA"],
            ["AWS_SHARED_CREDENTIALS_FILE": "/creds", "AWS_PROFILE": "absent"],
            ["AWS_SHARED_CREDENTIALS_FILE": "/creds", "AWS_PROFILE": "broken"],
            ["AWS_SHARED_CREDENTIALS_FILE": "/none", "AWS_PROFILE": "other"],
        ] {
            #expect(throws: ConfigurationError.self, "\(environment)") {
                try AWSCredentials.resolve(environment: environment, read: read)
            }
        }
    }
}
