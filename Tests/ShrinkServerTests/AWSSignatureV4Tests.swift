import Foundation
import Shrink
import ShrinkTestSupport
import Testing

@testable import ShrinkServer

/// The SigV4 signer against AWS's published test suite (Vendor/aws-sig-v4-test-suite: canonical request, string to
/// sign and Authorization of each request) and against botocore's S3 signer on S3 requests (the same canonical
/// request and Authorization header).
@Suite struct AWSSignatureV4Tests {
    /// The suite's folder: one folder per request, `NAME/NAME.req` and the expected `.creq`, `.sts`, `.authz`.
    static let suite = Corpus.projectRoot + "/Vendor/aws-sig-v4-test-suite"
    /// The credentials, region and service the suite's documentation gives.
    static let signer = AWSSignatureV4(
        credentials: AWSCredentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")

    /// The suite's requests, but those of `normalize-path/`: S3 signs the path as sent, with no dot segment or
    /// doubled slash resolved, so those five expectations are another service's rule.
    static func cases() throws -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        for name in try fm.contentsOfDirectory(atPath: suite).sorted() where name != "normalize-path" {
            let folder = suite + "/" + name
            if fm.fileExists(atPath: folder + "/" + name + ".req") {
                found.append(folder + "/" + name)
            } else if (try? fm.contentsOfDirectory(atPath: folder)) != nil {
                for inner in try fm.contentsOfDirectory(atPath: folder).sorted()
                where fm.fileExists(atPath: folder + "/" + inner + "/" + inner + ".req") {
                    found.append(folder + "/" + inner + "/" + inner)
                }
            }
        }
        return found
    }

    /// A `.req` file as a request: the first line's method and target (path, then `?` and `&`-separated pairs,
    /// all as written: the suite writes them unencoded), header lines up to a blank one (a line starting with
    /// white space is another value of the header above), then the body.
    static func request(_ text: String) throws -> (AWSSignatureV4.Request, timestamp: String) {
        var lines = text.components(separatedBy: "\n")
        let first = lines.removeFirst()
        let method = String(first.prefix { $0 != " " })
        let target = String(first.dropFirst(method.count + 1).dropLast(" HTTP/1.1".count))
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query =
            parts.count > 1 && !parts[1].isEmpty
            ? parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
            } : []
        var headers: [(name: String, value: String)] = []
        while let line = lines.first, !line.isEmpty {
            lines.removeFirst()
            if line.first == " " || line.first == "\t", let last = headers.last {
                headers.append((last.name, line))
            } else {
                let colon = try #require(line.firstIndex(of: ":"), "a header line: \(line)")
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let body = lines.dropFirst().joined(separator: "\n")
        let timestamp = try #require(headers.first { $0.name.lowercased() == "x-amz-date" }?.value)
        return (
            AWSSignatureV4.Request(
                method: method, path: String(parts[0]), query: query, headers: headers,
                payloadHash: SHA256.hex(Array(body.utf8))), timestamp
        )
    }

    /// Each request's canonical form is AWS's; its string to sign and Authorization are AWS's wherever the suite
    /// agrees with itself. Two of its files do not: their `.sts` hashes another canonical request than their own
    /// `.creq` (which Shrink's matches), so no signer can meet both; the test names them, and fails if that set
    /// changes.
    @Test func awsPublishedTestSuite() throws {
        let cases = try Self.cases()
        #expect(cases.count == 24, "\(cases.map { ($0 as NSString).lastPathComponent })")
        var contradicting: [String] = []
        for base in cases {
            let read = { (suffix: String) throws -> String in
                try String(contentsOfFile: base + suffix, encoding: .utf8)
            }
            let (request, timestamp) = try Self.request(try read(".req"))
            let canonical = AWSSignatureV4.canonicalRequest(request).text
            let expected = (creq: try read(".creq"), sts: try read(".sts"), authz: try read(".authz"))
            #expect(canonical == expected.creq, "\(base).creq")
            guard expected.sts.hasSuffix("\n" + SHA256.hex(expected.creq)) else {
                contradicting.append((base as NSString).lastPathComponent)
                continue
            }
            #expect(
                Self.signer.stringToSign(canonicalRequest: canonical, timestamp: timestamp) == expected.sts, "\(base)")
            #expect(Self.signer.authorization(for: request, timestamp: timestamp) == expected.authz, "\(base)")
        }
        #expect(contradicting == ["post-x-www-form-urlencoded", "post-x-www-form-urlencoded-parameters"])
    }

    @Test func timestampsAreUTC() {
        #expect(AWSSignatureV4.timestamp(1_440_938_160) == "20150830T123600Z")
        #expect(AWSSignatureV4.timestamp(0) == "19700101T000000Z")
    }

    /// botocore (the signer under boto3 and the AWS CLI) signs the same S3 requests, keys with spaces, `+`,
    /// parentheses, `~` and non-ASCII bytes, a version id, a session token, path-style and virtual-hosted
    /// addresses: the same canonical request and the same Authorization header, byte for byte.
    @Test func botocoreSignsTheSameS3Requests() async throws {
        let timestamp = AWSSignatureV4.timestamp(1_796_032_800)
        let cases: [(host: String, path: String, query: [(name: String, value: String)], token: String?)] = [
            ("127.0.0.1:9000", "/photos/a.jpg", [], nil),
            ("127.0.0.1:9000", "/photos/dir x/a+b(1)~ä,=&.jpg", [], nil),
            ("127.0.0.1:9000", "/photos/a.jpg", [("versionId", "3/L4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY")], nil),
            ("photos.s3.example.test", "/deep/key.png", [], "FwoGZXIvYXdzEXAMPLE//token+="),
        ]
        let credentials = AWSCredentials(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        var input: [[String: Any]] = []
        var ours: [(canonical: String, authorization: String)] = []
        for c in cases {
            var withToken = credentials
            withToken.sessionToken = c.token
            let signer = AWSSignatureV4(credentials: withToken, region: "eu-west-3")
            let headers = signer.headers(
                method: "GET", host: c.host, path: c.path, query: c.query, timestamp: timestamp)
            let signed = headers.filter { $0.name != "Authorization" }
            let request = AWSSignatureV4.Request(
                method: "GET", path: c.path, query: c.query, headers: signed,
                payloadHash: AWSSignatureV4.emptyPayloadHash)
            ours.append(
                (
                    AWSSignatureV4.canonicalRequest(request).text,
                    headers.first { $0.name == "Authorization" }?.value ?? ""
                ))
            input.append([
                "host": c.host, "path": c.path, "query": c.query.map { [$0.name, $0.value] }, "token": c.token ?? "",
                "key": credentials.accessKeyID, "secret": credentials.secretAccessKey, "timestamp": timestamp,
            ])
        }
        let script = """
            import json, sys
            from urllib.parse import quote
            from botocore.auth import S3SigV4Auth
            from botocore.awsrequest import AWSRequest
            from botocore.credentials import Credentials
            out = []
            for c in json.loads(sys.argv[1]):
                query = "&".join(quote(k, safe="~") + "=" + quote(v, safe="~") for k, v in c["query"])
                url = "http://" + c["host"] + quote(c["path"], safe="/~") + ("?" + query if query else "")
                request = AWSRequest(method="GET", url=url, headers={})
                auth = S3SigV4Auth(Credentials(c["key"], c["secret"], c["token"] or None), "s3", "eu-west-3")
                request.context["timestamp"] = c["timestamp"]
                auth._modify_request_before_signing(request)
                canonical = auth.canonical_request(request)
                auth._inject_signature_to_request(request, auth.signature(auth.string_to_sign(request, canonical), request))
                out.append({"canonical": canonical, "authorization": request.headers["Authorization"]})
            print(json.dumps(out))
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
        let run = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", script, json])
        #expect(run.status == 0, "botocore (pip install botocore): \(run.err)")
        let theirs = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: String]] ?? []
        #expect(theirs.count == cases.count)
        for (i, expected) in theirs.enumerated() where i < ours.count {
            #expect(ours[i].canonical == expected["canonical"], "case \(i)")
            #expect(ours[i].authorization == expected["authorization"], "case \(i)")
        }
    }
}
