import Shrink

/// The server's parsers as one libFuzzer entry point (`Fuzz/`'s `fuzz-server-url`): outside this package only
/// through `@_spi(Fuzzing)`, so the server's types stay `package`.
///
/// ``exercise(_:)`` takes any bytes as a raw request target and runs what a request meets before any decode:
/// the URL parsers (imgproxy's options, presets, Base64url and plain sources; thumbor's sizes, fits and filters), the image request and cache key the
/// options make, that request run on a small image when its predicted peak is small (geometry and finishing at
/// their edges: a result must have the finished size planned and fit in the predicted peak), signature checks, `local:///` resolution, address parsing and classification, the source allowlist's URL and entry parsers, `s3://` sources, and
/// `If-None-Match` matching, the `Content-Disposition` header. It traps (a finding) when an invariant breaks: a path
/// signed with a key must verify, a resolved local path must lie under the root, an address must print as what it
/// parsed from, a header must be printable ASCII (no line break a client could be made to split on).
@_spi(Fuzzing) public enum ServerFuzzing {
    private static let keys = SigningKeys(
        pairs: [(Array("key".utf8), Array("salt".utf8)), (Array("k2".utf8), [])], signatureBytes: 12)
    private static let presets = [
        "default": "q:70", "thumb": "rs:fill:96:96/pr:small", "small": "w:64/pr:thumb", "big": "rs:fit:4000:4000/dpr:5",
    ]
    nonisolated(unsafe) private static var local: LocalSource?
    /// A 48×32 JPEG the requests URLs make are run on.
    private static let sample: ImageSource? = {
        let size = PixelSize(width: 48, height: 32)
        let pixels = PixelBuffer(
            format: .rgb8, size: size, bytes: (0..<size.pixelCount * 3).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        guard let bytes = try? JPEGEncoder().encode(pixels) else { return nil }
        return try? ImageSource(bytes: bytes, name: "sample.jpg")
    }()
    /// The largest predicted peak the harness decodes (larger requests are only planned).
    private static let runBudget = 4 << 20

    /// Plans `request` on ``sample`` and, when its predicted peak is under ``runBudget``, decodes it: the result
    /// must have the finished size the plan gives and hold no more than the predicted peak.
    private static func run(_ request: ImageRequest) {
        guard let sample, let plan = try? sample.plan(request.target, options: request.options) else { return }
        let predicted = sample.predictedPeakBytes(for: plan, options: request.options)
        guard predicted <= runBudget, let image = try? sample.image(request.target, options: request.options) else {
            return
        }
        let finished = request.options.finishing.finishedSize(of: plan.outputSize)
        precondition(image.size == finished, "\(image.size) decoded, \(finished) planned")
        precondition(image.pixels.byteCount <= predicted, "\(image.pixels.byteCount) bytes, \(predicted) predicted")
    }

    /// The source allowlist's parsers on `text`, as a source and as an entry: a source that parses has no user
    /// information, nothing a second parser could read otherwise, a port in range, and matches an entry made of its
    /// own scheme, host and port and a scheme alone; an entry that parses matches its own text when it has no `*`.
    private static func allowlist(_ text: String) {
        if let url = RemoteURL(text) {
            precondition(
                !url.host.contains("@") && !url.host.contains("\\") && (1...65535).contains(url.port)
                    && url.path.hasPrefix("/"),
                "\(text) parsed as \(url)")
            let own = "\(url.scheme)://\(url.host):\(url.port)"
            if let entry = try? SourcePattern(own) {
                precondition(entry.matches(url), "\(text) does not match \(own)")
            }
            precondition((try? SourcePattern("\(url.scheme)://"))?.matches(url) == true, "\(text) not under its scheme")
        }
        if let entry = try? SourcePattern(text), !text.contains("*"), let url = RemoteURL(text) {
            precondition(entry.matches(url), "the entry \(text) does not match itself")
        }
    }

    /// The `s3://` source parser on `text`: a location that parses prints as a source that parses back to the same
    /// bytes, its bucket follows the naming rules and its key has no dot segment (looked for as bytes between `/`s).
    private static func s3(_ text: String) {
        guard let location = S3Location(text) else { return }
        precondition(
            S3Location(location.description) == location, "\(text) parsed as \(location), which does not parse back")
        precondition(
            S3Location.isBucketName(Substring(location.bucket)) && S3Location.isKey(Substring(location.key)),
            "\(text) parsed as \(location)")
        let segments = Array(("/" + location.key + "/").utf8)
        precondition(
            segments.firstRange(of: Array("/./".utf8)) == nil && segments.firstRange(of: Array("/../".utf8)) == nil,
            "\(text) parsed as \(location), a key with a dot segment")
    }

    /// Points `local:///` sources at `root` (an existing directory) for the runs that follow.
    public static func setLocalRoot(_ root: String) {
        local = try? LocalSource(root: root)
    }

    /// Runs `bytes` (any bytes; invalid UTF-8 is decoded with replacement characters) through the request-side
    /// parsers. Never throws: refusals are the expected outcome of most inputs.
    public static func exercise(_ bytes: [UInt8]) {
        let target = String(decoding: bytes, as: UTF8.self)
        _ = EntityTag.matches(target, "\"0123456789abcdef\"")
        if let address = IPAddress(target) {
            _ = AddressClassifier.refusal(address)
            precondition(
                IPAddress(address.description).map { $0.description == address.description } ?? false,
                "\(address) does not parse back")
        }
        allowlist(target)
        s3(target)
        if ThumborURL.recognizes(Substring(target)), let url = try? ThumborURL.parse(Substring(target)) {
            let key = Array("thumbor-key".utf8)
            let signed = ThumborURL.sign(String(url.signedPath), key: key)
            precondition(
                ThumborURL.verify(signature: Substring(signed), path: url.signedPath, key: key, allowsUnsafe: false),
                "a thumbor signature made for \(url.signedPath) does not verify")
            if let request = try? url.options.imageRequest(
                loader: FileLoader(path: "/nonexistent"), limits: ImageLimits())
            {
                run(request)
            }
        }
        guard let url = try? ProcessingURL(Substring(target), presets: presets, now: 1_700_000_000) else { return }
        let signed = keys.sign(String(url.signedPath))
        precondition(
            keys.verify(Substring(signed), path: url.signedPath),
            "a signature made for \(url.signedPath) does not verify")
        _ = keys.verify(url.signature, path: url.signedPath)
        let disposition = ContentDisposition.header(
            filename: url.options.filename, source: url.source, format: url.extensionFormat ?? .jpeg,
            attachment: url.options.attachment)
        precondition(
            disposition.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) },
            "Content-Disposition is not printable ASCII: \(disposition)")
        if let request = try? url.options.imageRequest(loader: FileLoader(path: "/nonexistent"), limits: ImageLimits())
        {
            _ = try? request.cacheKey().digest
            run(request)
        }
        s3(url.source)
        if let local, let path = try? local.resolve(url.source) {
            precondition(
                path == local.root || path.hasPrefix(local.root.hasSuffix("/") ? local.root : local.root + "/"),
                "\(url.source) resolved to \(path), outside \(local.root)")
        }
        if let host = url.source.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first,
            let address = IPAddress(host.split(separator: ":").first ?? host)
        {
            _ = AddressClassifier.refusal(address)
        }
    }
}
