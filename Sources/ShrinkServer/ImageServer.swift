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
/// Routing reads the raw request target (Hummingbird's router would drop empty path segments, and with them
/// one slash of `http://` inside a plain source URL, breaking the signature).
package struct ImageServer: Sendable {
    package let service: ImageService
    package let configuration: ServerConfiguration
    /// The pages under `/_/`, when ``ServerConfiguration/gallery`` is on.
    package let gallery: Gallery?
    private let logger: Logger

    /// Fails when the gallery is asked for without a local root.
    package init(service: ImageService, logger: Logger = Logger(label: "shrink.serve")) throws(ConfigurationError) {
        self.service = service
        self.configuration = service.configuration
        self.logger = logger
        gallery =
            service.configuration.gallery
            ? try Gallery(service: service, token: service.configuration.galleryToken) : nil
    }

    /// The responder: fixed paths first, the gallery under `/_/`, every other GET is an image URL.
    package func responder() -> CallbackResponder<ServerRequestContext> {
        let service = self.service, gallery = self.gallery
        return CallbackResponder { request, context in
            let target = Substring(request.head.path ?? "/")
            let response: ServerResponse
            switch target.split(separator: "?", maxSplits: 1).first ?? "" {
            case "/health":
                response = .text(200, "ok")
                service.metrics.request(route: "health", status: 200)
            case "/ready":
                let ready = service.isReady
                response = .text(ready ? 200 : 503, ready ? "ready" : (service.isDraining ? "draining" : "busy"))
                service.metrics.request(route: "ready", status: response.status)
            case "/metrics":
                service.metrics.refresh(from: service.pipeline.ledger, downloads: service.remote?.downloads)
                response = ServerResponse(
                    status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
                    body: Array(service.metrics.registry.render().utf8))
                service.metrics.request(route: "metrics", status: 200)
            case "/favicon.ico":
                response = .text(404, "no favicon")
            case let path where path == "/_" || path.hasPrefix("/_/"):
                guard let gallery else {
                    response = .text(404, "the gallery is off (shrink serve --gallery)")
                    break
                }
                let facts = Gallery.Request(
                    method: request.method.rawValue, target: target, remote: context.remoteAddress,
                    authorization: request.headers[.authorization], cookie: request.headers[.cookie],
                    origin: request.headers[.origin], host: request.head.authority,
                    contentLength: request.headers[.contentLength].flatMap { Int($0) })
                response = await gallery.respond(to: facts, body: request.body.map { Array($0.readableBytesView) })
            default:
                guard request.method == .get || request.method == .head else {
                    response = .text(405, "only GET and HEAD", headers: [("Allow", "GET, HEAD")])
                    break
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
                    to: target, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                    requestID: requestID
                ) { work in
                    watched.withLockedValue { $0 = true }
                    return try await request.body.consumeWithCancellationOnInboundClose { _ in await work() }
                }
                r.headers.append(("X-Request-Id", requestID))
                if watched.withLockedValue({ $0 }) { r.headers.append(("Connection", "close")) }
                response = r
            }
            return Self.hummingbirdResponse(response, head: request.method == .head)
        }
    }

    /// The Hummingbird response for `r`; for HEAD the headers (Content-Length included) without the body.
    static func hummingbirdResponse(_ r: ServerResponse, head: Bool) -> Response {
        var fields = HTTPFields()
        for (name, value) in r.headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        fields[.contentLength] = String(r.body.count)
        let body = r.body.isEmpty || head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: r.body))
        return Response(status: HTTPResponse.Status(code: r.status), headers: fields, body: body)
    }

    /// The Hummingbird application on the configured address (port 0 asks the system for one); `onListening`
    /// gets the bound port.
    package func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        Application(
            responder: responder(),
            // Idle keep-alive connections and stalled request bodies (an upload or login that stopped sending)
            // close after the idle timeout; a response being made is never cut.
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: ImageService.version),
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
