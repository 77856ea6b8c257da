import Foundation
import Shrink
import ShrinkServerURL

extension ImageService {
    /// imgproxy's `raw` and `skp`: the source's bytes as they are, when the URL asks for them (`raw`, or `skp`
    /// listing the source's format, sniffed from its bytes); nil otherwise, with the bytes loaded once and handed
    /// on in `loader` for the decode. A raw source must be an image format Shrink knows (else 415) and no larger
    /// than the input limit (else 413); a remote one was fetched under the download budget like any other.
    func passthrough(
        _ url: ProcessingURL, loader: inout any DataLoading, ifNoneMatch: String?, started: ContinuousClock.Instant
    ) async throws(RequestError) -> ServerResponse? {
        let options = url.options
        guard options.raw || !options.skipProcessing.isEmpty else { return nil }
        let bytes: ImageBytes
        let identity: String
        do {
            bytes = try await loader.load()
            identity = try loader.identity()
        } catch {
            throw Self.requestError(error)
        }
        let format = CodecRegistry.standard.codec(sniffing: bytes.bytes)?.format
        guard options.raw || format.map({ options.skipProcessing.contains($0) }) == true else {
            loader = BytesLoader(bytes: bytes, name: loader.name, identity: identity)
            return nil
        }
        guard let format else {
            throw RequestError(415, "raw: the source is not an image format Shrink reads")
        }
        guard bytes.count <= configuration.limits.maxInputBytes else {
            throw RequestError(413, "raw: the source is larger than \(configuration.limits.maxInputBytes) bytes")
        }
        let etag = "\"" + String(SHA256.hex("raw|" + identity + "|" + Self.version).prefix(32)) + "\""
        var headers: [(String, String)] = [("ETag", etag), ("Cache-Control", cacheControl(options))]
        if let inm = ifNoneMatch, EntityTag.matches(inm, etag) {
            metrics.cacheHit("http304")
            return ServerResponse(status: 304, headers: headers)
        }
        headers += [
            ("Content-Type", format.mimeType),
            ("Server-Timing", "total;dur=\(Self.ms(started.duration(to: .now)))"),
            ("X-Shrink-Origin", "source"),
            (
                "Content-Disposition",
                ContentDisposition.header(
                    filename: options.filename, source: url.source, format: format, attachment: options.attachment)
            ),
        ]
        return ServerResponse(status: 200, headers: headers, body: Array(bytes.bytes.bindMemory(to: UInt8.self)))
    }
}
