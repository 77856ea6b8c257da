import Shrink

#if canImport(Glibc)
    import Glibc
#endif

/// AWS Signature Version 4, signed in the `Authorization` header, as S3 and every store that speaks its protocol
/// check it: a canonical form of the request (method, path, query, headers, the payload's SHA-256) hashed into a
/// string to sign, and an HMAC-SHA256 of that under a key derived from the secret, the day, the region and the
/// service. The path is signed as sent, each byte outside the unreserved set percent-encoded once and no dot
/// segment resolved (S3's rule; other AWS services normalise the path first). The hashes and MACs are libcrypto's
/// (``SHA256``, ``HMACSHA256``). Checked against AWS's published test suite and botocore's signer.
///
/// Cost: a few SHA-256 and five HMAC computations over a few hundred bytes per request.
package struct AWSSignatureV4: Sendable {
    /// One request as it will be sent: its path and query decoded (the signer encodes them), its headers as
    /// name and value (several of one name keep their order).
    package struct Request: Sendable {
        package var method: String
        package var path: String
        package var query: [(name: String, value: String)]
        package var headers: [(name: String, value: String)]
        /// The payload's SHA-256 in lowercase hex, or `UNSIGNED-PAYLOAD`.
        package var payloadHash: String

        package init(
            method: String, path: String, query: [(name: String, value: String)] = [],
            headers: [(name: String, value: String)], payloadHash: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The SHA-256 of no bytes: the payload hash of a GET.
    package static let emptyPayloadHash = SHA256.hex([UInt8]())

    package let credentials: AWSCredentials
    package let region: String
    package let service: String

    package init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The canonical request of `request`, and its signed headers (lowercase names, sorted, `;` between).
    package static func canonicalRequest(_ request: Request) -> (text: String, signedHeaders: String) {
        let pairs: [(name: String, value: String)] = request.query.map { pair in
            (encode(pair.name, keepingSlash: false), encode(pair.value, keepingSlash: false))
        }
        let sorted = pairs.sorted { a, b in a.name != b.name ? a.name < b.name : a.value < b.value }
        let query = sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in request.headers {
            let key = name.lowercased()
            if values[key] == nil { names.append(key) }
            values[key, default: []].append(collapsingSpaces(value))
        }
        names.sort()
        let headers = names.map { $0 + ":" + values[$0, default: []].joined(separator: ",") + "\n" }.joined()
        let signed = names.joined(separator: ";")
        let path = request.path.isEmpty ? "/" : encode(request.path, keepingSlash: true)
        let text = [request.method, path, query, headers, signed, request.payloadHash].joined(separator: "\n")
        return (text, signed)
    }

    /// The string to sign for `canonicalRequest` at `timestamp` (`yyyyMMddTHHmmssZ`, UTC).
    package func stringToSign(canonicalRequest: String, timestamp: String) -> String {
        ["AWS4-HMAC-SHA256", timestamp, scope(timestamp), SHA256.hex(canonicalRequest)].joined(separator: "\n")
    }

    /// The `Authorization` header's value for `request` at `timestamp`: the request must already carry every
    /// header it will be sent with that is to be signed (`Host`, `X-Amz-Date`, `X-Amz-Content-SHA256`, a session
    /// token's).
    package func authorization(for request: Request, timestamp: String) -> String {
        let (canonical, signed) = Self.canonicalRequest(request)
        let toSign = stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        let signature = SHA256.hexDigits(
            HMACSHA256.authenticationCode(for: Array(toSign.utf8), key: signingKey(timestamp)))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(timestamp)), SignedHeaders=\(signed), "
            + "Signature=\(signature)"
    }

    /// The headers to send an S3 request with: `Host`, `X-Amz-Date`, `X-Amz-Content-SHA256`, the session token's,
    /// `signing` (headers sent and signed too: S3 wants every `x-amz-` header signed) and `Authorization`, for
    /// `method` on `path` (decoded) with `query` at `host` (with its port when not the scheme's), its payload hashed
    /// as `payloadHash`, at `timestamp`.
    package func headers(
        method: String, host: String, path: String, query: [(name: String, value: String)] = [],
        payloadHash: String = emptyPayloadHash, signing: [(name: String, value: String)] = [], timestamp: String
    ) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("Host", host), ("X-Amz-Date", timestamp), ("X-Amz-Content-SHA256", payloadHash),
        ]
        headers += signing
        if let token = credentials.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let request = Request(method: method, path: path, query: query, headers: headers, payloadHash: payloadHash)
        headers.append(("Authorization", authorization(for: request, timestamp: timestamp)))
        return headers
    }

    /// `seconds` since the epoch as a SigV4 timestamp, `yyyyMMddTHHmmssZ` in UTC.
    package static func timestamp(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// `day/region/service/aws4_request`.
    private func scope(_ timestamp: String) -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// HMAC chain from `AWS4` + the secret over the day, the region, the service and `aws4_request`.
    private func signingKey(_ timestamp: String) -> [UInt8] {
        var key = Array(("AWS4" + credentials.secretAccessKey).utf8)
        for part in [String(timestamp.prefix(8)), region, service, "aws4_request"] {
            key = HMACSHA256.authenticationCode(for: Array(part.utf8), key: key)
        }
        return key
    }

    /// `text`'s UTF-8 bytes with every byte outside `A–Z a–z 0–9 - _ . ~` (and `/` when `keepingSlash`) written as
    /// `%XX`, uppercase.
    static func encode(_ text: String, keepingSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(b)
            case UInt8(ascii: "/") where keepingSlash:
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` without leading and trailing spaces and tabs, each run of them inside made one space.
    private static func collapsingSpaces(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
