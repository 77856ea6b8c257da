import Foundation
import Shrink
import ShrinkCore
import ShrinkServerURL
import Synchronization

/// Reads objects from an S3-compatible store: each request addressed path-style or virtual-hosted, signed with
/// AWS Signature Version 4 when there are credentials, and sent through ``RemoteFetcher/exchange(_:request:checksAddress:)``
/// — the same deadlines, byte cap and download budget as http(s) sources, no redirect followed (S3's 301 for
/// another region is an error naming it). The endpoint is the operator's, so its address is not classified, but
/// the connection is pinned to the address resolved for the request.
///
/// Keeps each object's validator (its ETag, else its Last-Modified) for ``S3Settings/validatorLifetime`` (for ever
/// for a versioned object); a GET sends the validator it was asked for as `If-Match`, so the bytes are the ones
/// the validator names. Cost per request: one signature (a few hashes) and one exchange; a validator not known
/// costs a HEAD.
package final class ObjectStoreClient: Sendable {
    package let settings: S3Settings
    let fetcher: RemoteFetcher
    private let signer: AWSSignatureV4?
    private let validators = Mutex([S3Location: (validator: String, until: ContinuousClock.Instant?)]())
    /// Validators kept at most; when full, the expired ones go, then all.
    private static let validatorCapacity = 65_536

    package init(settings: S3Settings, fetcher: RemoteFetcher) {
        self.settings = settings
        self.fetcher = fetcher
        signer = settings.credentials.map { AWSSignatureV4(credentials: $0, region: settings.region) }
    }

    /// The URL of `location`, the `Host` it is sent with, its decoded path and its query.
    package func address(of location: S3Location) -> (
        url: String, host: String, path: String, query: [(name: String, value: String)]
    ) {
        let host = settings.usesPathStyle ? settings.authority : location.bucket + "." + settings.authority
        let path = settings.usesPathStyle ? "/\(location.bucket)/\(location.key)" : "/\(location.key)"
        let query = location.versionID.map { [(name: "versionId", value: $0)] } ?? []
        let encodedQuery = query.map {
            "?" + $0.name + "=" + AWSSignatureV4.encode($0.value, keepingSlash: false)
        }.joined()
        let url = "\(settings.scheme)://\(host)" + AWSSignatureV4.encode(path, keepingSlash: true) + encodedQuery
        return (url, host, path, query)
    }

    /// The validator of `location`: the one kept while it is fresh, else a HEAD's. Fails as ``get(_:ifMatch:)``.
    package func validator(of location: S3Location) async throws(ImageError) -> String {
        let now = ContinuousClock.now
        if let kept = validators.withLock({ $0[location] }), kept.until.map({ now < $0 }) ?? true {
            return kept.validator
        }
        let response = try await send("HEAD", location)
        try check(response, location)
        return remember(response, for: location)
    }

    /// The object's bytes, the GET sending `ifMatch` (an ETag the caller knows it by) when given. Fails with a
    /// ``RemoteFetcher`` cause: a missing object is `.fileNotFound` (404), a store that refuses, redirects or
    /// fails is ``RemoteFetcher/origin`` (502), one that is slow ``RemoteFetcher/timeout`` (504); a body past the
    /// cap is `.limitExceeded` (413), read no further than the cap.
    package func get(_ location: S3Location, ifMatch: String? = nil) async throws(ImageError) -> ImageBytes {
        var extra: [String] = []
        if let ifMatch, ifMatch.hasPrefix("\"") || ifMatch.hasPrefix("W/") { extra.append("If-Match: \(ifMatch)") }
        let response = try await send("GET", location, extra: extra)
        if response.status == 412 {
            _ = validators.withLock { $0.removeValue(forKey: location) }
            throw ImageError(
                .io, "\(location): the object changed while it was being read (ETag no longer \(ifMatch ?? ""))",
                cause: RemoteFetcher.origin)
        }
        try check(response, location)
        _ = remember(response, for: location)
        guard let body = response.body else {
            throw ImageError(.io, "\(location): the store sent no body", cause: RemoteFetcher.origin)
        }
        return body
    }

    /// One signed exchange for `location`: `extra` header lines sent as they are, `signed` headers sent and signed
    /// (every `x-amz-` one must be), `body` a PUT's (its SHA-256 signed as the payload, which S3 checks;
    /// `bodyHash` when the caller has it already, else computed here).
    func send(
        _ method: String, _ location: S3Location, extra: [String] = [], signed: [(name: String, value: String)] = [],
        body: [UInt8] = [], bodyHash: String? = nil, deadlines: RemoteFetcher.Deadlines? = nil
    ) async throws(ImageError) -> Transfer.Response {
        let (url, host, path, query) = address(of: location)
        var lines = extra
        if let signer {
            let timestamp = AWSSignatureV4.timestamp(Int(Date().timeIntervalSince1970))
            let payload = method == "PUT" ? bodyHash ?? SHA256.hex(body) : AWSSignatureV4.emptyPayloadHash
            let headers = signer.headers(
                method: method, host: host, path: path, query: query, payloadHash: payload, signing: signed,
                timestamp: timestamp)
            lines += headers.filter { $0.name != "Host" }.map { "\($0.name): \($0.value)" }
        } else {
            lines += signed.map { "\($0.name): \($0.value)" }
        }
        do {
            return try await fetcher.exchange(
                url, request: Transfer.Request(method: method, headers: lines, body: body), checksAddress: false,
                deadlines: deadlines)
        } catch  where error.cause == nil && error.code != .cancelled && error.code != .limitExceeded {
            throw ImageError(error.code, "\(location): \(error.message)", cause: RemoteFetcher.origin)
        }
    }

    /// Fails unless `response` is a 200, saying what the store said.
    private func check(_ response: Transfer.Response, _ location: S3Location) throws(ImageError) {
        guard response.status != 200 else { return }
        let code = Self.errorCode(response.errorText).map { " (\($0))" } ?? ""
        if response.status == 404 {
            throw ImageError(.fileNotFound, "\(location): no such object\(code)", cause: RemoteFetcher.origin)
        }
        if (300..<400).contains(response.status) {
            throw ImageError(
                .io, "\(location): the store redirected (\(response.status)\(code)); not followed: check the region",
                cause: RemoteFetcher.origin)
        }
        throw ImageError(.io, "\(location): the store answered \(response.status)\(code)", cause: RemoteFetcher.origin)
    }

    /// Keeps the validator `response` carries (ETag, else Last-Modified) and returns it ("" when it has none).
    private func remember(_ response: Transfer.Response, for location: S3Location) -> String {
        let validator = response.etag ?? response.lastModified ?? ""
        let until = location.versionID == nil ? ContinuousClock.now + settings.validatorLifetime : nil
        validators.withLock { table in
            if table.count >= Self.validatorCapacity {
                let now = ContinuousClock.now
                table = table.filter { $0.value.until.map { now < $0 } ?? true }
                if table.count >= Self.validatorCapacity { table.removeAll() }
            }
            table[location] = (validator, until)
        }
        return validator
    }

    /// The `<Code>` of an S3 error document.
    static func errorCode(_ text: String) -> String? {
        guard let open = text.range(of: "<Code>"),
            let close = text.range(of: "</Code>", range: open.upperBound..<text.endIndex)
        else { return nil }
        let code = text[open.upperBound..<close.lowerBound]
        return code.count <= 64 && code.allSatisfy({ $0.isLetter || $0.isNumber }) ? String(code) : nil
    }
}
