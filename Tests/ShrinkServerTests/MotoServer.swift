import Foundation
import ShrinkTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// moto's S3 server (`python3 -m moto.server`, from `moto[server]`, which `make deps` installs) on 127.0.0.1, with
/// request authentication on: after the first four requests (the IAM user, its key and its policy that ``init()``
/// makes), every request must carry a valid AWS Signature Version 4 of that user's key, as S3 checks it. Buckets and
/// objects are made with boto3. Killed when dropped.
final class MotoServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    /// The IAM user's key (the only one moto accepts once authentication is on).
    let accessKeyID: String
    let secretAccessKey: String

    var endpoint: String { "http://127.0.0.1:\(port)" }

    init() async throws {
        port = try Self.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["INITIAL_NO_AUTH_ACTION_COUNT": "4", "AWS_EC2_METADATA_DISABLED": "true"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // moto starts in a second or two; a loaded machine running the suite in parallel may take longer.
        var up = false
        for _ in 0..<600 where !up && process.isRunning {
            up = Self.accepts(port: port)
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(up, "moto did not start on 127.0.0.1:\(port) (is moto[server] installed? make deps)")
        let out = try await Self.python(
            """
            import boto3, sys
            iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                               aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
            iam.create_user(UserName="shrink")
            key = iam.create_access_key(UserName="shrink")["AccessKey"]
            iam.put_user_policy(UserName="shrink", PolicyName="all", PolicyDocument=
                '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}')
            print(key["AccessKeyId"], key["SecretAccessKey"])
            """, ["http://127.0.0.1:\(port)"], environment: [:])
        let parts = out.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(parts.count == 2, "moto gave no key: \(out)")
        (accessKeyID, secretAccessKey) = (parts[0], parts[1])
    }

    /// The environment boto3 and Shrink read the user's key from.
    var credentials: [String: String] {
        [
            "AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey,
            "AWS_EC2_METADATA_DISABLED": "true",
        ]
    }

    /// Runs `script` with boto3's client for this server as `s3` (signed with the user's key) and `arguments` as
    /// `sys.argv[1...]`; its standard output.
    @discardableResult
    func boto3(_ script: String, _ arguments: [String] = []) async throws -> String {
        try await Self.python(
            """
            import boto3, sys
            s3 = boto3.client("s3", endpoint_url=\"\(endpoint)\", region_name="us-east-1")
            """ + "\n" + script, arguments, environment: credentials)
    }

    /// Makes `bucket` (versioned when asked).
    func makeBucket(_ bucket: String, versioned: Bool = false) async throws {
        try await boto3(
            """
            s3.create_bucket(Bucket=sys.argv[1])
            if sys.argv[2] == "1":
                s3.put_bucket_versioning(Bucket=sys.argv[1], VersioningConfiguration={"Status": "Enabled"})
            """, [bucket, versioned ? "1" : "0"])
    }

    /// Stores `bytes` as `key` in `bucket`; the version id (`null` when the bucket is not versioned) and ETag.
    @discardableResult
    func put(_ bytes: [UInt8], bucket: String, key: String) async throws -> (version: String, etag: String) {
        let file = NSTemporaryDirectory() + "moto-\(UInt32.random(in: 0...UInt32.max))"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let out = try await boto3(
            """
            r = s3.put_object(Bucket=sys.argv[1], Key=sys.argv[2], Body=open(sys.argv[3], "rb").read())
            print(r.get("VersionId", "null"), r["ETag"])
            """, [bucket, key, file])
        let parts = out.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (parts.first ?? "", parts.last ?? "")
    }

    private static func python(_ script: String, _ arguments: [String], environment: [String: String]) async throws
        -> String
    {
        let run = try await ChildProcess.run(
            "/usr/bin/env", ["python3", "-c", script] + arguments, environment: environment)
        try #require(run.status == 0, "python3 failed: \(run.err)")
        return run.out
    }

    /// True when something accepts connections on 127.0.0.1:`port`.
    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
