import Foundation
import Shrink
import ShrinkTestSupport
import Testing
@testable import ShrinkServer

/// `shrink serve` as a process: SIGTERM turns /ready to 503, the request in flight completes, exit 0.
@Suite struct DrainTests {
    @Test func sigtermDrainsInFlightRequestsAndExitsZero() async throws {
        let fixture = try ServerFixture()
        // The request in flight fetches its source from a loopback origin that holds the body until SIGTERM has
        // been sent, so the request is in flight then however fast the machine decodes (a local source's full
        // decode took under 0.3 s on a quiet machine, and the request finished before the signal).
        let body = try TestImages.jpeg(TestImages.pattern(width: 2400, height: 1600), quality: 90)
        let arrived = Gate(), held = DispatchGroup()
        held.enter()
        let origin = try RawOrigin { _, fd in
            arrived.open()
            held.wait()
            RawOrigin.reply(
                fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body: body)
        }
        defer { origin.stop() }
        let server = try await ServeProcess(
            ["--root", fixture.root, "--budget", "256M", "--drain-delay", "1"],
            environment: [
                "SHRINK_ALLOWED_SOURCES": "http://127.0.0.1:\(origin.port)/",
                "SHRINK_ALLOWED_PRIVATE_HOSTS": "127.0.0.1:\(origin.port)",
            ])
        let port = server.port
        #expect(server.logText.contains("signing is OFF"))
        #expect(try await RawHTTP.get(port: port, "/ready").status == 200)

        // Full size to PNG, from the origin: in flight (its source held) when SIGTERM arrives.
        let listening = port, source = "http://127.0.0.1:\(origin.port)/big.jpg"
        let inFlight = Task { () async throws -> (RawHTTP.Response, ContinuousClock.Instant) in
            (try await RawHTTP.get(port: listening, "/insecure/plain/\(source)@png"), .now)
        }
        await arrived.wait()
        let killedAt = ContinuousClock.now
        kill(server.pid, SIGTERM)
        try await Task.sleep(for: .milliseconds(200))
        let ready = try await RawHTTP.get(port: port, "/ready")
        #expect(ready.status == 503)
        held.leave()

        let (r, finishedAt) = try await inFlight.value
        #expect(finishedAt > killedAt, "the request was still in flight when SIGTERM arrived")
        #expect(r.status == 200)
        #expect(try imageSize(r.body) == PixelSize(width: 2400, height: 1600))
        try await waitUntil { !server.process.isRunning }
        #expect(server.process.terminationStatus == 0)
        #expect(throws: (any Error).self) { _ = try RawHTTP.connect(port: port) }
    }
}
