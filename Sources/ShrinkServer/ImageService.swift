import Foundation
import Logging
import Shrink
import Synchronization
import ShrinkServerURL

/// Answers image URLs: parse and verify, resolve the source, answer `If-None-Match` with 304 before any
/// work, bound the queue (503 with `Retry-After`), then ask the pipeline for encoded bytes — identical
/// requests in flight share one decode, and the disk and memory caches are read before admission.
///
/// It knows nothing of HTTP libraries: ``respond(to:)`` takes the raw request target and headers and
/// returns a ``ServerResponse``; ``ImageServer`` wires it to Hummingbird.
package final class ImageService: Sendable {
    /// The server's version, part of every ETag (a new version may make different bytes).
    package static let version = "shrink/0.17"

    package let configuration: ServerConfiguration
    package let pipeline: ImagePipeline
    package let metrics: ServerMetrics
    private let local: LocalSource?
    /// The configured watermark (``ServerConfiguration/watermarkImage``), opened once.
    private let watermark: Watermark?
    package let remote: RemoteFetcher?
    /// The object store `s3://` sources and the result tier are read from; nil when neither is on.
    package let objectStore: ObjectStoreClient?
    /// The shared result tier (``ServerConfiguration/resultStore``); nil when none.
    package let resultStore: S3ResultStore?
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var draining = false
    }
    /// Requests in flight (image and gallery requests); trims the heap once the server is idle.
    let trimmer = IdleTrimmer()
    /// Recent responses' telemetry by ETag (the gallery's inspector reads it).
    package let telemetry = TelemetryLog()

    /// Builds the pipeline (the server preset: one budget for decodes, encoders, sources and cached results)
    /// and the sources. Fails when the local root or the cache directory cannot be used.
    package init(
        configuration: ServerConfiguration, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "shrink.serve"),
        observer: (@Sendable (PipelineEvent) -> Void)? = nil
    ) throws(ConfigurationError) {
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        if configuration.negotiation.avif {
            // Offering AVIF without the library to write it would answer browsers with errors: refuse to start.
            do { _ = try AVIFEncoder.library() } catch {
                throw ConfigurationError("SHRINK_AUTO_AVIF is on, but \(error.reason)")
            }
        }
        // Colour management stops a process that cannot load Little CMS (it is loaded on first use): refuse to start
        // rather than stop at the first tagged image.
        do { try LCMSLibrary.load() } catch { throw ConfigurationError(error.reason) }
        // The same for libcrypto, without which no cache key, ETag or signature can be made.
        do { try CryptoLibrary.load() } catch { throw ConfigurationError(error.reason) }
        if configuration.negotiation.webp {
            // The same for WebP, whose library is loaded on first use too.
            do { _ = try WebPEncoder.library() } catch {
                throw ConfigurationError("SHRINK_AUTO_WEBP is on, but \(error.reason)")
            }
        }
        local = try configuration.localRoot.map { root throws(ConfigurationError) in try LocalSource(root: root) }
        if let bytes = configuration.watermarkImage {
            do {
                let source = try ImageSource(bytes: bytes, name: "watermark")
                watermark = Watermark(
                    source: source, identity: "sha256:" + SHA256.hex(bytes), opacity: configuration.watermarkOpacity)
            } catch {
                throw ConfigurationError("the watermark image: \(error.message)")
            }
        } else {
            watermark = nil
        }
        var disk: DiskCache?
        if let dir = configuration.cacheDirectory {
            do { disk = try DiskCache(directory: dir, sizeLimit: configuration.cacheBytes) } catch {
                throw ConfigurationError("cache directory \(dir): \(error.message)")
            }
        }
        // With remote sources, downloads get their own share of the budget (at least one whole source, at most
        // half the budget) and the pipeline the rest, so that the two together never pass it.
        var pipelineBudget = configuration.budget
        let usesObjectStore = configuration.s3.servesSources || configuration.resultStore != nil
        if configuration.allowedSources.isEmpty && !usesObjectStore {
            remote = nil
        } else {
            let share = min(configuration.budget / 2, max(configuration.maxSourceBytes, configuration.budget / 4))
            pipelineBudget -= share
            remote = RemoteFetcher(configuration: configuration, downloads: DownloadBudget(capacity: share))
        }
        if usesObjectStore, let remote {
            objectStore = ObjectStoreClient(settings: configuration.s3, fetcher: remote)
        } else {
            objectStore = nil
        }
        if let store = configuration.resultStore, let objectStore {
            resultStore = S3ResultStore(
                client: objectStore, bucket: store.bucket, prefix: store.prefix,
                maxObjectBytes: configuration.resultStoreMaxObjectBytes, timeout: configuration.resultStoreTimeout)
        } else {
            resultStore = nil
        }
        var pipelineConfiguration = ImagePipeline.Configuration.server(
            budget: pipelineBudget, maxConcurrentDecodes: configuration.concurrency,
            resultCacheBytes: configuration.resultCacheBytes, diskCache: disk)
        pipelineConfiguration.observer = observer
        pipelineConfiguration.sharedResults = resultStore
        if let disk {
            // A failed disk-cache write is logged (the metrics count it); writing is then off for a while.
            pipelineConfiguration.observer = { [logger] event in
                if case .diskCacheWriteFailed(_, let reason) = event {
                    logger.warning("disk cache: \(reason); writing off for \(disk.writePause), entries still read")
                }
                observer?(event)
            }
        }
        pipeline = ImagePipeline(configuration: pipelineConfiguration)
    }

    /// Stops the remote fetcher's client (its own event loop group).
    package func shutdown() async {
        await remote?.shutdown()
    }

    /// True once draining started: `/ready` answers 503.
    package var isDraining: Bool { state.withLock { $0.draining } }

    package func startDraining() { state.withLock { $0.draining = true } }

    /// Ready for traffic: not draining, and the queue has room.
    package var isReady: Bool { !isDraining && pipeline.ledger.queuedDecodes < configuration.queueLimit }

    /// Runs `work` (waiting for a decode) and returns its result, or throws when the client disconnects first
    /// (cancelling `work`, and with it the image task unless another request waits for the same image).
    package typealias DisconnectGuard =
        @Sendable (_ work: @Sendable () async -> Result<EncodedResponse, RequestError>) async throws
        -> Result<EncodedResponse, RequestError>

    /// One image request: `target` is the raw request target (path and query, exactly as received).
    /// `disconnect`, when given, wraps only a wait for work that did not finish at once (a decode, a disk
    /// read): the server watches the connection then, at the price of closing it after the response, and
    /// keeps it open for answers made at once (memory-cache hits, 304s, errors).
    package func respond(
        to target: Substring, accept: String? = nil, ifNoneMatch: String? = nil,
        requestID: String = UUID().uuidString, disconnect: DisconnectGuard? = nil
    ) async -> ServerResponse {
        let started = ContinuousClock.now
        metrics.inflight(trimmer.enter())
        defer { metrics.inflight(trimmer.leave()) }
        var log = logger
        log[metadataKey: "request-id"] = .string(requestID)
        var response: ServerResponse
        do throws(RequestError) {
            response = try await image(
                for: target, accept: accept, ifNoneMatch: ifNoneMatch, log: log, started: started,
                disconnect: disconnect)
        } catch {
            response = errorResponse(error)
            response.headers.append(("Server-Timing", "total;dur=\(Self.ms(started.duration(to: .now)))"))
            log.info(
                "refused", metadata: ["status": .stringConvertible(error.status), "reason": .string(error.logMessage)])
        }
        if let origin = configuration.allowOrigin { response.headers.append(("Access-Control-Allow-Origin", origin)) }
        metrics.request(route: "image", status: response.status)
        metrics.stage("total", started.duration(to: .now))
        return response
    }

    /// The statuses of a source that cannot be had or read (missing, too large, not an image, damaged, its origin
    /// failing or slow): what the fallback image answers, when one is configured.
    static let sourceFailures: Set<Int> = [404, 413, 415, 422, 502, 504]

    private func image(
        for target: Substring, accept: String?, ifNoneMatch: String?, log: Logger,
        started: ContinuousClock.Instant, disconnect: DisconnectGuard?
    ) async throws(RequestError) -> ServerResponse {
        let prefix = configuration.pathPrefix
        guard target.hasPrefix(prefix), prefix.isEmpty || target.dropFirst(prefix.count).first == "/" else {
            throw RequestError.invalidURL("image URLs start with \(prefix)/")
        }
        let path = target.dropFirst(prefix.count), rules = configuration.urlRules
        // The signature first, then the parse: with a key set, a request that is not signed gets the same 403
        // whatever its options say.
        let thumbor = ThumborURL.recognizes(path, rules: rules)
        let (signature, signedPath) = ProcessingURL.signature(of: path) ?? ("", "")
        let signed =
            thumbor
            ? ThumborURL.verify(
                signature: signature, path: signedPath.dropFirst(), key: configuration.thumborKey,
                allowsUnsafe: configuration.allowsThumborUnsafe)
            : configuration.keys.verify(signature, path: signedPath)
        guard signed || configuration.trustedSignatures.contains(String(signature)) else {
            metrics.rejection("signature")
            throw RequestError(403, "invalid signature")
        }
        let url: ProcessingURL
        do {
            url = thumbor ? try ThumborURL.parse(path) : try ProcessingURL(path, rules: rules)
        } catch {
            throw error.ofTheURL()
        }
        do {
            return try await image(
                url, source: try await loader(for: url), accept: accept, ifNoneMatch: ifNoneMatch, log: log,
                started: started,
                disconnect: disconnect)
        } catch  where configuration.fallbackImage != nil && Self.sourceFailures.contains(error.status) {
            log.info(
                "fallback image",
                metadata: ["status": .stringConvertible(error.status), "reason": .string(error.logMessage)])
            var response = try await image(
                url, source: try fallbackLoader(), accept: accept, ifNoneMatch: ifNoneMatch, log: log, started: started,
                disconnect: disconnect)
            response.status = configuration.fallbackStatus
            let maxAge = configuration.fallbackTTL ?? configuration.ttl ?? 60
            response.headers.removeAll { $0.0 == "Cache-Control" }
            response.headers += [("Cache-Control", "public, max-age=\(maxAge)"), ("Fallback-Image", "1")]
            return response
        }
    }

    /// The fallback image's loader: a file, or a URL fetched as remote sources are (without the allowed prefixes:
    /// the operator named it).
    private func fallbackLoader() throws(RequestError) -> (any DataLoading, String) {
        let source = configuration.fallbackImage ?? ""
        if source.lowercased().hasPrefix("http://") || source.lowercased().hasPrefix("https://") {
            guard let remote else { throw RequestError(500, "the fallback image is a URL but remote sources are off") }
            return (remote.loader(for: source, cacheBuster: nil), source)
        }
        return (FileLoader(path: source), source)
    }

    /// The response for `url` made from `source` (a loader and the name its format defaults come from).
    private func image(
        _ url: ProcessingURL, source: (any DataLoading, String), accept: String?, ifNoneMatch: String?, log: Logger,
        started: ContinuousClock.Instant, disconnect: DisconnectGuard?
    ) async throws(RequestError) -> ServerResponse {
        var (loader, sourceName) = source
        if let raw = try await passthrough(url, loader: &loader, ifNoneMatch: ifNoneMatch, started: started) {
            return raw
        }
        let request = try url.options.imageRequest(loader: loader, limits: configuration.limits, watermark: watermark)
        let (output, negotiated) = outputSettings(url, accept: accept, sourceName: sourceName)
        let key: CacheKey
        do { key = try pipeline.cacheKey(for: request, output: output) } catch { throw Self.requestError(error) }
        let etag =
            "\""
            + String(
                SHA256.hex(key.string + "|server=" + Self.version + "|cb=" + (url.options.cacheBuster ?? "")).prefix(32)
            ) + "\""
        var headers: [(String, String)] = [("ETag", etag), ("Cache-Control", cacheControl(url.options))]
        if negotiated { headers.append(("Vary", "Accept")) }
        if let inm = ifNoneMatch, EntityTag.matches(inm, etag) {
            metrics.cacheHit("http304")
            telemetry.recordNotModified(etag: etag)
            headers.append(("Server-Timing", "total;dur=\(Self.ms(started.duration(to: .now)))"))
            return ServerResponse(status: 304, headers: headers)
        }
        guard pipeline.ledger.queuedDecodes < configuration.queueLimit else {
            metrics.rejection("queue-full")
            throw RequestError(
                503, "the server is busy (queue full); retry shortly", retryAfter: configuration.retryAfter)
        }
        let task = pipeline.encodedImageTask(with: request, as: output)
        let result = try await wait(for: task, disconnect: disconnect)
        let t = result.telemetry
        switch t.origin {
        case .memoryCache: metrics.cacheHit("memory")
        case .diskCache: metrics.cacheHit("disk")
        case .sharedStore: metrics.cacheHit("shared")
        case .decoded:
            if !t.coalesced { metrics.decodePeak(t.predictedPeakBytes) }
        }
        metrics.stage("queue", t.queueWait)
        metrics.stage("decode", t.decodeTime)
        metrics.stage("encode", t.encodeTime)
        let total = started.duration(to: .now)
        headers += [
            ("Content-Type", result.image.mimeType),
            (
                "Server-Timing",
                "queue;dur=\(Self.ms(t.queueWait)), decode;dur=\(Self.ms(t.decodeTime)), encode;dur=\(Self.ms(t.encodeTime)), total;dur=\(Self.ms(total))"
            ),
            ("X-Shrink-Origin", t.coalesced ? "coalesced" : t.origin.rawValue),
            (
                "Content-Disposition",
                ContentDisposition.header(
                    filename: url.options.filename, source: url.source, format: result.image.format,
                    attachment: url.options.attachment)
            ),
        ]
        telemetry.record(etag: etag, t)
        log.debug(
            "served",
            metadata: ["origin": .string(t.origin.rawValue), "bytes": .stringConvertible(result.image.bytes.count)])
        return ServerResponse(status: 200, headers: headers, body: result.image.bytes)
    }

    /// Awaits `task`: at once when it has finished (a memory-cache hit), else under `disconnect` when given
    /// (499 when the client left first).
    private func wait(for task: ImageTask, disconnect: DisconnectGuard?) async throws(RequestError) -> EncodedResponse {
        guard let disconnect, !task.isFinished else { return try await wait(for: task) }
        let result: Result<EncodedResponse, RequestError>
        do {
            result = try await disconnect {
                do throws(RequestError) { return .success(try await self.wait(for: task)) } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw RequestError(499, "the client closed the connection")
        }
        return try result.get()
    }

    /// Awaits `task`, cancelling it (and answering 503) when it is still waiting for admission after the
    /// maximum queue wait; cancellation of the calling task (the client went away) cancels it too.
    private func wait(for task: ImageTask) async throws(RequestError) -> EncodedResponse {
        let pipeline = self.pipeline, maxWait = configuration.maxQueueWait
        let watchdog = Task {
            var waited = Duration.zero
            while !task.isFinished {
                try? await Task.sleep(for: .milliseconds(50))
                waited += .milliseconds(50)
                if waited >= maxWait, pipeline.isWaitingForAdmission(task) {
                    task.cancel()
                    return true
                }
                if Task.isCancelled { return false }
            }
            return false
        }
        defer { watchdog.cancel() }
        do {
            return try await task.encodedResponse
        } catch {
            if error.code == .cancelled, await watchdog.value {
                metrics.rejection("queue-timeout")
                throw RequestError(
                    503, "the server is busy (waited \(maxWait) for memory); retry shortly",
                    retryAfter: configuration.retryAfter)
            }
            throw Self.requestError(error)
        }
    }

    /// The loader for `source` and a name for format defaults: a file under the local root, a remote URL allowed by
    /// prefix, or an object in an allowed bucket (its validator known, or asked for with a HEAD).
    private func loader(for url: ProcessingURL) async throws(RequestError) -> (any DataLoading, String) {
        var source = url.source
        if let base = configuration.baseURL, !source.utf8.starts(with: base.utf8) { source = base + source }
        if source.hasPrefix("local://") {
            guard let local else { throw RequestError(403, "local:// sources are off (no local root configured)") }
            let path = try local.resolve(source)
            return (FileLoader(path: path), path)
        }
        let lower = source.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let remote, configuration.allows(source: source) else {
                metrics.rejection("source-not-allowed")
                throw RequestError(403, "source not allowed: \(source.prefix(200)) (see SHRINK_ALLOWED_SOURCES)")
            }
            return (remote.loader(for: source, cacheBuster: url.options.cacheBuster), source)
        }
        if lower.hasPrefix("s3://") {
            guard let store = objectStore, store.settings.servesSources else {
                metrics.rejection("source-not-allowed")
                throw RequestError(403, "s3:// sources are off (see SHRINK_S3_ALLOWED_BUCKETS)")
            }
            guard let location = S3Location(source) else {
                throw RequestError.invalidURL(
                    "not an s3:// source Shrink reads (s3://BUCKET/KEY[?VERSION_ID]): \(source.prefix(200))"
                ).ofTheURL()
            }
            guard store.settings.allows(bucket: location.bucket) else {
                metrics.rejection("source-not-allowed")
                throw RequestError(403, "bucket not allowed: \(location.bucket) (see SHRINK_S3_ALLOWED_BUCKETS)")
            }
            let validator: String
            do { validator = try await store.validator(of: location) } catch { throw Self.requestError(error) }
            let loader = S3Loader(
                location: location, validator: validator, cacheBuster: url.options.cacheBuster, client: store)
            return (loader, location.key)
        }
        throw RequestError.invalidURL(
            "unsupported source scheme: \(source.prefix(40)) (local:///PATH, http(s)://… or s3://BUCKET/KEY)")
    }

    /// The output: the URL's format, else AVIF or WebP when negotiated from `Accept` (``FormatNegotiation``), else
    /// the format the registry writes thumbnails of the source's format in (named by its extension: its own when
    /// written (JPEG for AVIF), else JPEG; ``CodecRegistry/thumbnailFormat(for:)``). `negotiated`: the URL named no
    /// format and negotiation is on, so the response varies with `Accept`.
    private func outputSettings(_ url: ProcessingURL, accept: String?, sourceName: String) -> (
        OutputSettings, negotiated: Bool
    ) {
        var negotiated = false
        let format: ImageFormat
        if let f = url.options.format ?? url.extensionFormat {
            format = f
        } else if let chosen = configuration.negotiation.format(accept: accept) {
            format = chosen
            negotiated = true
        } else {
            negotiated = configuration.negotiation.isEnabled
            let registry = CodecRegistry.standard
            format = registry.thumbnailFormat(
                for: registry.format(forPath: String(sourceName.split(separator: "?").first ?? "")))
        }
        // Optimised Huffman tables for JPEG, as imgproxy writes: a result is cached and served many times, so the
        // smaller file is worth the encode's extra pass (BENCHMARKS.md, "Figures behind the code").
        var settings = OutputSettings(
            format: format,
            quality: url.options.quality ?? url.options.formatQuality[format.name]
                ?? configuration.formatQuality[format.name] ?? configuration.quality,
            optimizeCoding: CodecRegistry.standard.writer(for: format)?.reads.contains(.optimizeCoding) == true,
            background: url.options.background ?? .white)
        settings.keepEXIF = !url.options.stripMetadata
        settings.keepCopyright = url.options.keepCopyright ?? configuration.keepCopyright
        settings.maxBytes = url.options.maxBytes
        return (settings, negotiated)
    }

    /// A year and immutable for signed URLs (their bytes never change under one ETag); an hour unsigned;
    /// never past `exp`.
    func cacheControl(_ options: ProcessingOptions) -> String {
        var maxAge = configuration.ttl ?? (configuration.keys.isEnabled ? 31_536_000 : 3600)
        if let exp = options.expires { maxAge = max(0, min(maxAge, exp - Int(Date().timeIntervalSince1970))) }
        return configuration.keys.isEnabled && options.expires == nil
            ? "public, max-age=\(maxAge), immutable" : "public, max-age=\(maxAge)"
    }

    private func errorResponse(_ error: RequestError) -> ServerResponse {
        var headers = [("Cache-Control", error.isPropertyOfURL ? "public, max-age=60" : "no-store")]
        if let r = error.retryAfter { headers.append(("Retry-After", String(r))) }
        return .text(error.status, error.message, headers: headers)
    }

    /// The status for a pipeline error: for remote sources 403 refused (private address, not allowed), 504
    /// timed out, 502 the origin failed; 404 missing, 413 over a limit or the whole budget, 415 not an image
    /// format Shrink reads, 422 damaged, 400 invalid, 499 cancelled (the client left), 500 otherwise.
    /// The client reads the error's ``ImageError/reason`` (no path of the server's files); the log its description.
    static func requestError(_ error: ImageError) -> RequestError {
        // A remote source's refusal or failure says no more than its status: what the resolver answered, which
        // address a host has, or what the origin said stays in the log (an unsigned client must not map the network).
        switch error.cause {
        case RemoteFetcher.refused?: return RequestError(403, "source refused", log: error.description)
        case RemoteFetcher.timeout?:
            return RequestError(504, "the source's origin did not answer in time", log: error.description)
        case RemoteFetcher.origin? where error.code == .fileNotFound:
            return RequestError(404, "source not found", log: error.description)
        case RemoteFetcher.origin?: return RequestError(502, "the source's origin failed", log: error.description)
        default: return RequestError(error.code.httpStatus, error.reason, log: error.description)
        }
    }

    /// A duration as `Server-Timing` gives it: milliseconds with one decimal.
    static func ms(_ d: Duration) -> String { String(format: "%.1f", d.inMilliseconds) }
}
