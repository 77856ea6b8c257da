import Dispatch
import Foundation
import Hummingbird
import Logging
import Shrink
import ShrinkTestSupport
import Testing
@testable import ShrinkServer
@testable import ShrinkServerURL

/// The server over real sockets on 127.0.0.1 (port 0): raw paths, endpoints, cancellation on disconnect.
@Suite struct LiveServerTests {
    let fixture: ServerFixture
    init() throws { fixture = try ServerFixture() }

    /// Runs `body` with a server for `service` listening on a free loopback port.
    static func withServer(_ service: ImageService, _ body: (Int) async throws -> Void) async throws {
        try await withServer(service) { port, _ in try await body(port) }
    }

    /// Runs `body` with a server for `service` listening on a free loopback port, given the port and the server.
    static func withServer(_ service: ImageService, _ body: (Int, ImageServer) async throws -> Void) async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = try ImageServer(service: service, logger: logger)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let app = server.application { port in continuation.yield(port) }
        let task = Task { try await app.runService() }
        var iterator = stream.makeAsyncIterator()
        let port = try #require(await iterator.next())
        defer { task.cancel() }
        try await body(port, server)
    }

    static func configured(_ fixture: ServerFixture, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws
        -> ImageService
    {
        try fixture.service { c in
            c.host = "127.0.0.1"
            c.port = 0
            configure(&c)
        }
    }

    @Test func rawTargetsAreSignedAndParsedAsSent() async throws {
        let keys = try SigningKeys(hexKeys: "736563726574", hexSalts: "68656c6c6f")
        let service = try Self.configured(fixture) { $0.keys = keys }
        try await Self.withServer(service) { port in
            let path = "/rs:fit:40:40/plain/local:///a.jpg@png"
            let ok = try await RawHTTP.get(port: port, "/" + keys.sign(path) + path)
            #expect(ok.status == 200 && ok.headers["content-type"] == "image/png")
            #expect(try imageSize(ok.body) == PixelSize(width: 40, height: 30))
            #expect(ok.headers["x-request-id"] != nil && ok.headers["server-timing"] != nil)
            // The same path with the triple slash collapsed is another path: its signature does not match.
            let collapsed = try await RawHTTP.get(
                port: port, "/" + keys.sign(path) + "/rs:fit:40:40/plain/local:/a.jpg@png")
            #expect(collapsed.status == 403)
            let head = try await RawHTTP.get(
                port: port, "/" + keys.sign(path) + path, headers: ["If-None-Match": ok.headers["etag"] ?? ""])
            #expect(head.status == 304 && head.body.isEmpty)
        }
    }

    /// Hummingbird's router takes the fixed routes (any query, GET and HEAD), the gallery's prefix and everything
    /// else to the image service, which reads the raw target (the signed test above) and answers 405 for other
    /// methods.
    @Test func theRouterDispatchesFixedRoutesGalleryAndImages() async throws {
        let service = try Self.configured(fixture)
        try await Self.withServer(service) { port in
            let head = try await RawHTTP.get(port: port, "/health", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty, "\(head.headers)")
            #expect(try await RawHTTP.get(port: port, "/health?probe=1").status == 200)
            #expect(try await RawHTTP.get(port: port, "/ready", method: "HEAD").status == 200)
            let post = try await RawHTTP.get(port: port, "/insecure/w:20/plain/local:///a.jpg", method: "POST")
            #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
            let image = try await RawHTTP.get(port: port, "/insecure/w:20/plain/local:///a.jpg", method: "HEAD")
            #expect(image.status == 200 && image.body.isEmpty && image.headers["content-type"] == "image/jpeg")
            #expect(try await RawHTTP.get(port: port, "/favicon.ico").status == 404)
            let gallery = try await RawHTTP.get(port: port, "/_/browse/")
            #expect(gallery.status == 404 && String(decoding: gallery.body, as: UTF8.self).contains("gallery is off"))
            let root = try await RawHTTP.get(port: port, "/")
            #expect(root.status == 404, "\(root.status) \(String(decoding: root.body, as: UTF8.self))")
        }
    }

    /// `/_/` holds the gallery's pages and image URLs signed `_` (pyimgproxy's placeholder) side by side: told apart by
    /// the second segment, with the gallery on or off. Signing off, any placeholder signs.
    @Test func imageURLsSignedUnderscoreLiveBesideTheGallery() async throws {
        for gallery in [true, false] {
            let service = try Self.configured(fixture) { $0.gallery = gallery }
            try await Self.withServer(service) { port in
                for signature in ["_", "unsafe", "insecure"] {
                    let image = try await RawHTTP.get(port: port, "/\(signature)/w:20/plain/local:///a.jpg@png")
                    #expect(image.status == 200 && image.headers["content-type"] == "image/png", "\(signature)")
                    #expect(image.headers["content-disposition"] == "inline; filename=\"a.png\"")
                }
                let named = try await RawHTTP.get(port: port, "/_/fn:cat/att:1/w:20/plain/local:///a.jpg@webp")
                #expect(named.headers["content-disposition"] == "attachment; filename=\"cat.webp\"")
                let options = try await RawHTTP.get(port: port, "/_/rs:fit:20:20/q:50/plain/local:///a.jpg")
                #expect(options.status == 200 && options.headers["content-type"] == "image/jpeg")
                let page = try await RawHTTP.get(port: port, "/_/browse/")
                #expect(page.status == (gallery ? 200 : 404), "gallery \(gallery): \(page.status)")
                #expect(try await RawHTTP.get(port: port, "/_/gallery.css").status == (gallery ? 200 : 404))
            }
        }
        #expect(Gallery.owns("/_") && Gallery.owns("/_/") && Gallery.owns("/_/inspect/a.jpg?x=1"))
        #expect(!Gallery.owns("/_/w:20/plain/local:///a.jpg") && !Gallery.owns("/_/plain/local:///browse"))
        #expect(!Gallery.owns("/browse/") && !Gallery.owns("/_browse"))
    }

    @Test func healthReadyAndMetrics() async throws {
        let service = try Self.configured(fixture)
        try await Self.withServer(service) { port in
            #expect(try await RawHTTP.get(port: port, "/health").status == 200)
            #expect(try await RawHTTP.get(port: port, "/ready").status == 200)
            _ = try await RawHTTP.get(port: port, "/insecure/w:20/plain/local:///a.jpg")
            _ = try await RawHTTP.get(port: port, "/insecure/w:20/plain/local:///nope.jpg")
            let metrics = String(decoding: try await RawHTTP.get(port: port, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("shrink_http_requests_total{route=\"image\",status=\"200\"} 1"))
            #expect(metrics.contains("shrink_http_requests_total{route=\"image\",status=\"404\"} 1"))
            #expect(metrics.contains("shrink_budget_bytes \(256 << 20)"))
            #expect(metrics.contains("# TYPE shrink_stage_seconds histogram"))
            #expect(metrics.contains("shrink_stage_seconds_count{stage=\"decode\"} 1"))
            #expect(metrics.contains("shrink_decodes_total 1"))
            #expect(metrics.contains("shrink_resident_bytes "))
            service.startDraining()
            let ready = try await RawHTTP.get(port: port, "/ready")
            #expect(ready.status == 503 && String(decoding: ready.body, as: UTF8.self).contains("draining"))
        }
    }

    /// Answers made at once (a memory-cache hit, a 304, an error) keep the connection for the next request; a
    /// response that waited for a decode, watched for the client leaving, closes it after itself.
    @Test func answersMadeAtOnceKeepTheConnectionAlive() async throws {
        let service = try Self.configured(fixture)
        try await Self.withServer(service) { port in
            let url = "/insecure/w:30/plain/local:///a.jpg"
            let first = try await RawHTTP.get(port: port, url)
            #expect(first.status == 200 && first.headers["x-shrink-origin"] == "decoded")
            let etag = try #require(first.headers["etag"])
            let (responses, closed) = try await RawHTTP.keepAlive(
                port: port,
                [
                    (url, [:]), (url, ["If-None-Match": etag]), ("/insecure/w:30/plain/local:///nope.jpg", [:]),
                    ("/insecure/w:31/plain/local:///a.jpg", [:]),
                ])
            #expect(responses.map(\.status) == [200, 304, 404, 200])
            #expect(responses[0].headers["x-shrink-origin"] == "memoryCache" && responses[0].body == first.body)
            #expect(
                responses[3].headers["x-shrink-origin"] == "decoded" && responses[3].headers["connection"] == "close")
            #expect(responses.prefix(3).allSatisfy { $0.headers["connection"] == nil })
            #expect(try imageSize(responses[3].body) == PixelSize(width: 31, height: 23))
            #expect(closed, "a response that waited for a decode closes its connection")
        }
    }

    /// An idle keep-alive connection and a request whose body stalls both close after the idle timeout.
    @Test func idleConnectionsAndStalledBodiesClose() async throws {
        let service = try Self.configured(fixture) { $0.idleTimeout = .milliseconds(500) }
        try await Self.withServer(service) { port in
            let closedWithin = { (fd: Int32) async throws -> Bool in
                try await withCheckedThrowingContinuation { c in
                    Thread.detachNewThread {
                        var timeout = timeval(tv_sec: 5, tv_usec: 0)
                        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                        var buf = [UInt8](repeating: 0, count: 4096)
                        var n = 0
                        repeat { n = recv(fd, &buf, buf.count, 0) } while n > 0
                        c.resume(returning: n == 0) // 0: the server closed it; -1: still open after 5 s
                    }
                }
            }
            let idle = try RawHTTP.connect(port: port)
            defer { close(idle) }
            #expect(try await closedWithin(idle), "an idle connection closes")
            let stalled = try RawHTTP.connect(port: port)
            defer { close(stalled) }
            RawHTTP.send(
                stalled, "PUT /_/upload/x.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n0123456789")
            #expect(try await closedWithin(stalled), "a request whose body stalls closes")
        }
    }

    @Test func aClientThatLeavesCancelsItsDecode() async throws {
        let gate = DispatchSemaphore(value: 0)
        fixture.hold.withLock { $0 = gate }
        let service = try Self.configured(fixture) { $0.concurrency = 1 }
        try await Self.withServer(service) { port in
            let fd = try RawHTTP.connect(port: port)
            RawHTTP.send(fd, "GET /insecure/w:100/plain/local:///b.jpg HTTP/1.1\r\nHost: x\r\n\r\n")
            try await waitUntil { fixture.decodeCount == 1 }
            close(fd)
            try await waitUntil { service.pipeline.ledger.waitingTasks == 0 }
            gate.signal()
            try await waitUntil { service.pipeline.ledger.decodesCancelled == 1 }
            #expect(service.pipeline.ledger.encodes == 0)
        }
    }

    @Test func aSharedDecodeOutlivesOneClientLeaving() async throws {
        let gate = DispatchSemaphore(value: 0)
        fixture.hold.withLock { $0 = gate }
        let service = try Self.configured(fixture) { $0.concurrency = 1 }
        try await Self.withServer(service) { port in
            let leaving = try RawHTTP.connect(port: port)
            RawHTTP.send(leaving, "GET /insecure/w:90/plain/local:///b.jpg HTTP/1.1\r\nHost: x\r\n\r\n")
            try await waitUntil { fixture.decodeCount == 1 }
            let staying = Task { try await RawHTTP.get(port: port, "/insecure/w:90/plain/local:///b.jpg") }
            try await waitUntil { service.pipeline.ledger.waitingTasks == 2 }
            close(leaving)
            try await waitUntil { service.pipeline.ledger.waitingTasks == 1 }
            gate.signal()
            let r = try await staying.value
            #expect(r.status == 200)
            #expect(service.pipeline.ledger.decodesCancelled == 0 && fixture.decodeCount == 1)
        }
    }
}
