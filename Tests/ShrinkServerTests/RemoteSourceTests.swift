import Foundation
import Shrink
import ShrinkTestSupport
import Testing
@testable import ShrinkServer
#if canImport(Glibc)
    import Glibc
    @testable import ShrinkServerURL
#endif

/// http sources against origins on 127.0.0.1 only. The origin is allowed explicitly by host and port; any
/// other loopback spelling it redirects to must be refused before a connection is opened (the second origin
/// counts connections and must see none). Nothing here connects outside 127.0.0.0/8.
@Suite struct RemoteSourceTests {
    let fixture: ServerFixture
    let jpeg: [UInt8]

    init() throws {
        fixture = try ServerFixture()
        jpeg = try TestImages.jpeg(TestImages.pattern(width: 320, height: 240))
    }

    func service(origin: RawOrigin, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> ImageService
    {
        let http = try SourcePattern("http://")
        return try fixture.service { c in
            c.allowedSources = [http]
            c.allowedPrivateHosts = ["127.0.0.1:\(origin.port)"]
            c.downloadTimeout = .seconds(1)
            c.firstByteTimeout = .seconds(1)
            c.maxSourceBytes = 1 << 20
            configure(&c)
        }
    }

    func get(_ service: ImageService, _ source: String) async -> ServerResponse {
        await service.respond(to: Substring("/insecure/w:64/plain/" + SignedPath.escape(source) + "@jpg"))
    }

    @Test func fetchesFromAnExplicitlyAllowedLoopbackOrigin() async throws {
        let body = jpeg
        let origin = try RawOrigin { _, fd in
            RawOrigin.reply(
                fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body: body)
        }
        let service = try service(origin: origin)
        let r = await get(service, "http://127.0.0.1:\(origin.port)/photo.jpg")
        #expect(r.status == 200)
        #expect(try imageSize(r.body) == PixelSize(width: 64, height: 48))
        // Identical URLs are one identity: a second request is a cache hit, no second fetch.
        #expect(await get(service, "http://127.0.0.1:\(origin.port)/photo.jpg").status == 200)
        #expect(origin.hits == 1)
        // The download's reservation came back once its bytes were decoded and freed.
        try await waitUntil { service.remote?.downloads.used == 0 }
        // Downloads get a quarter of the 256 MiB budget (more than one 1 MiB source, less than half); the pipeline the rest.
        #expect(service.remote?.downloads.capacity == 64 << 20)
        #expect(service.pipeline.ledger.budget == 192 << 20)
    }

    @Test func loopbackIsRefusedUnlessAllowed() async throws {
        let origin = try RawOrigin { _, fd in RawOrigin.reply(fd, "HTTP/1.1 500 X\r\nContent-Length: 0\r\n\r\n") }
        let http = try SourcePattern("http://")
        let service = try fixture.service { $0.allowedSources = [http] }
        for host in [
            "127.0.0.1:\(origin.port)", "[::1]:\(origin.port)", "[::ffff:127.0.0.1]:\(origin.port)",
            "localhost:\(origin.port)",
        ] {
            let r = await get(service, "http://\(host)/a.jpg")
            #expect(r.status == 403, "\(host): \(r.status)")
        }
        #expect(origin.hits == 0)
    }

    @Test(arguments: [
        "http://127.0.0.1:{B}/a.jpg", "http://[::1]:{B}/a.jpg", "http://[::ffff:127.0.0.1]:{B}/a.jpg",
        "http://localhost:{B}/a.jpg",
    ])
    func redirectsToOtherLoopbackAddressesAreRefused(_ location: String) async throws {
        let target = try RawOrigin { _, fd in RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") }
        let next = location.replacingOccurrences(of: "{B}", with: String(target.port))
        let origin = try RawOrigin { _, fd in
            RawOrigin.reply(
                fd, "HTTP/1.1 302 Found\r\nLocation: \(next)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        let service = try service(origin: origin)
        let r = await get(service, "http://127.0.0.1:\(origin.port)/a.jpg")
        #expect(r.status == 403, "\(next): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
        #expect(origin.hits == 1 && target.hits == 0)
    }

    /// Security review, hole 1: an allowlist entry without a trailing slash was a string prefix, so user information
    /// or a longer port walked past it, directly and through a redirect. Entries are URLs now.
    @Test func userInformationAndLongerPortsNeverPassAnEntry() async throws {
        let body = jpeg
        let other = try RawOrigin { _, fd in
            RawOrigin.reply(
                fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body: body)
        }
        let allowed = "http://127.0.0.1:\(other.port + 1)"
        let bypass = "\(allowed)@127.0.0.1:\(other.port)/ok.jpg"
        let redirector = try RawOrigin { _, fd in
            RawOrigin.reply(fd, "HTTP/1.1 302 Found\r\nLocation: \(bypass)\r\nContent-Length: 0\r\n\r\n")
        }
        let entries = [try SourcePattern("http://127.0.0.1:\(redirector.port)"), try SourcePattern(allowed)]
        let service = try fixture.service { c in
            c.allowedSources = entries
            c.allowedPrivateHosts = ["127.0.0.1:\(other.port)", "127.0.0.1:\(redirector.port)"]
            c.downloadTimeout = .seconds(1)
        }
        for source in [bypass, "http://127.0.0.1:\(redirector.port)0/ok.jpg", "http://127.0.0.1:\(other.port)/ok.jpg"] {
            let r = await get(service, source)
            #expect(r.status == 403, "\(source): \(r.status)")
        }
        // Through the allowed redirector: the Location is refused by the same matcher.
        let r = await get(service, "http://127.0.0.1:\(redirector.port)/photo.jpg")
        #expect(r.status == 403 && redirector.hits == 1)
        #expect(other.hits == 0)
    }

    @Test func redirectsWithinTheAllowedOriginAreFollowedAtMostFiveTimes() async throws {
        let body = jpeg
        let origin = try RawOrigin { line, fd in
            let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            if path.hasPrefix("/hop"), let n = Int(path.dropFirst(4)), n > 0 {
                RawOrigin.reply(fd, "HTTP/1.1 301 Moved\r\nLocation: /hop\(n - 1)\r\nContent-Length: 0\r\n\r\n")
            } else {
                RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: body)
            }
        }
        let service = try service(origin: origin)
        #expect(await get(service, "http://127.0.0.1:\(origin.port)/hop5").status == 200)
        #expect(await get(service, "http://127.0.0.1:\(origin.port)/hop6").status == 502)
    }

    @Test func originFaults() async throws {
        let body = jpeg
        let origin = try RawOrigin { line, fd in
            switch line.split(separator: " ").dropFirst().first ?? "" {
            case "/slow": // headers, then a byte a second: past the body deadline
                RawOrigin.reply(
                    fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: Array(body.prefix(10)))
                for b in body.dropFirst(10).prefix(20) { sleep(1); RawOrigin.reply(fd, "", body: [b]) }
            case "/silent": // nothing at all: past the first-byte deadline
                sleep(20)
            case "/endless": // no length, bytes forever: stopped at the byte cap
                RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
                let chunk = [UInt8](repeating: 0xAB, count: 65536)
                for _ in 0..<64 { RawOrigin.reply(fd, "", body: chunk) }
            case "/short": // Content-Length larger than the body
                RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count + 1000)\r\n\r\n", body: body)
            case "/huge": // Content-Length above the cap: refused before reading
                RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(64 << 20)\r\n\r\n")
            case "/reset": // connection reset (RST) mid-body
                RawOrigin.reply(
                    fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: Array(body.prefix(100)))
                var l = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
            case "/missing":
                RawOrigin.reply(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            case "/error":
                RawOrigin.reply(fd, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
            case "/notimage":
                RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", body: Array("hello".utf8))
            default:
                RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: body)
            }
        }
        let service = try service(origin: origin)
        let base = "http://127.0.0.1:\(origin.port)"
        let expected: [(String, Int)] = [
            ("/slow", 504), ("/silent", 504), ("/endless", 413), ("/short", 502), ("/huge", 413),
            ("/reset", 502), ("/missing", 404), ("/error", 502), ("/notimage", 415), ("/fine", 200),
        ]
        // Each status tells which guard fired: without the deadlines /slow and /silent would end as 502 (the
        // origin closes early), without the cap /endless would end as 415 (not an image).
        for (path, status) in expected {
            let r = await get(service, base + path)
            #expect(r.status == status, "\(path): \(r.status) \(String(decoding: r.body.prefix(200), as: UTF8.self))")
        }
    }
}
