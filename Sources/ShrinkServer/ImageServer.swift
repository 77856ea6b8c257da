import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Shrink
import ShrinkServerURL

/// `shrink serve`: an ``ImageService`` behind Hummingbird, with `/health`, `/ready` and `/metrics`, and a
/// graceful drain on SIGTERM — `/ready` turns 503 (for ``ServerConfiguration/drainDelay``), the listener
/// closes, in-flight requests finish within ``ServerConfiguration/drainDeadline``, then the process exits 0.
///
/// Hummingbird's router dispatches: the fixed routes, the gallery's pages under `/_/` (``Gallery/owns(_:)``: the rest of
/// `/_/` are image URLs signed `_`), and every other path (`**`) to the
/// image service. Image URLs and the gallery are then read from the raw request target, not from the router's
/// parsed path (which drops empty segments, and with them one slash of `http://` inside a plain source URL,
/// breaking the signature).
package struct ImageServer: Sendable {
    package let service: ImageService
    package let configuration: ServerConfiguration
    /// The pages under `/_/`, when ``ServerConfiguration/gallery`` is on.
    package let gallery: Gallery?
    private let logger: Logger
    /// The connections open now, against ``ServerConfiguration/maxConnections``.
    package let connections = ConnectionCount()

    /// Fails when the gallery is asked for without a local root.
    package init(service: ImageService, logger: Logger = Logger(label: "shrink.serve")) throws(ConfigurationError) {
        self.service = service
        self.configuration = service.configuration
        self.logger = logger
        gallery =
            service.configuration.gallery
            ? try Gallery(service: service, token: service.configuration.galleryToken) : nil
    }

    /// Every method the image and gallery routes answer (an image URL answers anything but GET and HEAD with 405).
    private static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options]

    /// The responder: Hummingbird's router over the fixed routes, the gallery under `/_/` and image URLs.
    package func responder() -> RouterResponder<ServerRequestContext> {
        let service = self.service, gallery = self.gallery
        let router = Router(context: ServerRequestContext.self)
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/health", method: method) { request, _ in
                service.metrics.request(route: "health", status: 200)
                return Self.hummingbirdResponse(.text(200, "ok"), head: request.method == .head)
            }
            router.on("/ready", method: method) { request, _ in
                let ready = service.isReady
                let response = ServerResponse.text(
                    ready ? 200 : 503, ready ? "ready" : (service.isDraining ? "draining" : "busy"))
                service.metrics.request(route: "ready", status: response.status)
                return Self.hummingbirdResponse(response, head: request.method == .head)
            }
            router.on("/metrics", method: method) { request, _ in
                service.metrics.refresh(
                    from: service.pipeline.ledger, downloads: service.remote?.downloads,
                    resultStore: service.resultStore)
                service.metrics.request(route: "metrics", status: 200)
                let response = ServerResponse(
                    status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
                    body: Array(service.metrics.registry.render().utf8))
                return Self.hummingbirdResponse(response, head: request.method == .head)
            }
            router.on("/favicon.ico", method: method) { request, _ in
                Self.hummingbirdResponse(.text(404, "no favicon"), head: request.method == .head)
            }
        }
        for method in Self.methods {
            for path: RouterPath in ["/_", "/_/**"] {
                router.on(path, method: method) { request, context in
                    Gallery.owns(Substring(request.head.path ?? "/"))
                        ? await Self.galleryResponse(gallery, request: request, context: context)
                        : await Self.imageResponse(service, request: request)
                }
            }
            for path: RouterPath in ["/", "**"] {
                router.on(path, method: method) { request, _ in await Self.imageResponse(service, request: request) }
            }
        }
        return router.buildResponder()
    }

    /// The gallery's answer to `request` (read from its raw target), or 404 when the gallery is off.
    private static func galleryResponse(_ gallery: Gallery?, request: Request, context: ServerRequestContext) async
        -> Response
    {
        guard let gallery else {
            return hummingbirdResponse(
                .text(404, "the gallery is off (shrink serve --gallery)"), head: request.method == .head)
        }
        let facts = Gallery.Request(
            method: request.method.rawValue, target: Substring(request.head.path ?? "/"), remote: context.remoteAddress,
            authorization: request.headers[.authorization], cookie: request.headers[.cookie],
            origin: request.headers[.origin], host: request.head.authority,
            contentLength: request.headers[.contentLength].flatMap { Int($0) },
            forwarded: request.headers.contains {
                let name = $0.name.canonicalName
                return name == "forwarded" || name.hasPrefix("x-forwarded-") || name == "x-real-ip" || name == "via"
            })
        let response = await gallery.respond(to: facts, body: request.body.map { Array($0.readableBytesView) })
        return hummingbirdResponse(response, head: request.method == .head)
    }

    /// The image service's answer to the image URL in `request`'s raw target; 405 for methods other than GET and
    /// HEAD.
    private static func imageResponse(_ service: ImageService, request: Request) async -> Response {
        guard request.method == .get || request.method == .head else {
            return hummingbirdResponse(.text(405, "only GET and HEAD", headers: [("Allow", "GET, HEAD")]), head: false)
        }
        let requestID =
            request.headers[.init("X-Request-Id")!].map { String($0.prefix(64)) }
            ?? UInt64.random(in: 0...UInt64.max).description
        // Waiting for a decode, a client that disconnects cancels the wait, and with it the image task
        // (its decode stops unless another request waits for the same image). Hummingbird closes the
        // connection after a response watched this way, so that response says `Connection: close`
        // (a keep-alive client such as nginx's upstream pool must not send its next request down a
        // connection that is closing); answers made at once keep the connection alive.
        let watched = NIOLockedValueBox(false)
        var r = await service.respond(
            to: Substring(request.head.path ?? "/"), accept: request.headers[.accept],
            ifNoneMatch: request.headers[.ifNoneMatch], requestID: requestID
        ) { work in
            watched.withLockedValue { $0 = true }
            return try await request.body.consumeWithCancellationOnInboundClose { _ in await work() }
        }
        r.headers.append(("X-Request-Id", requestID))
        if watched.withLockedValue({ $0 }) { r.headers.append(("Connection", "close")) }
        return hummingbirdResponse(r, head: request.method == .head)
    }

    /// The Hummingbird response for `r`; for HEAD the headers (Content-Length included) without the body. Every
    /// response says `X-Content-Type-Options: nosniff`: a browser takes its type as sent, never sniffs an image or an
    /// error as something it could run.
    static func hummingbirdResponse(_ r: ServerResponse, head: Bool) -> Response {
        var fields = HTTPFields()
        for (name, value) in r.headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        fields[.contentLength] = String(r.body.count)
        fields[.xContentTypeOptions] = "nosniff"
        let body = r.body.isEmpty || head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: r.body))
        return Response(status: HTTPResponse.Status(code: r.status), headers: fields, body: body)
    }

    /// The Hummingbird application on the configured address (port 0 asks the system for one); `onListening`
    /// gets the bound port.
    package func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let limits = ConnectionGuard.Limits(
            header: TimeAmount(configuration.headerTimeout), bodyIdle: TimeAmount(configuration.bodyIdleTimeout),
            body: TimeAmount(configuration.bodyTimeout), request: TimeAmount(configuration.requestTimeout),
            connections: configuration.maxConnections, headerBytes: configuration.maxHeaderBytes)
        let count = connections
        return Application(
            responder: responder(),
            // Idle keep-alive connections close after the idle timeout; the guard cuts a first head, a body or a
            // request past its deadline and closes connections over the cap as they are accepted.
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionGuard(limits: limits, count: count)],
                    idleTimeout: TimeAmount(configuration.idleTimeout))),
            // A listen queue of 4096 (the kernel caps it at net.core.somaxconn): a burst of connections waits there
            // to be accepted (and, over the cap, closed) rather than overflowing it, where the kernel drops them
            // half-made and clients retry for seconds.
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: ImageService.version,
                backlog: 4096),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Runs until SIGTERM or SIGINT, then drains and returns.
    package func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let drain = DrainService(service: service, delay: configuration.drainDelay, logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(
            services: [application(onListening: onListening), drain],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.drainDeadline
        let group = ServiceGroup(configuration: groupConfiguration)
        try await group.run()
        await service.shutdown()
    }

}
