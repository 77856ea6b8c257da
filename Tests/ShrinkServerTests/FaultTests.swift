import Foundation
import Shrink
import ShrinkTestSupport
import Synchronization
import Testing

@testable import ShrinkServer
@testable import ShrinkServerURL

#if canImport(Glibc)
    import Glibc
#endif

/// The server under faults (security review, "Faults, tested"): the cache's disk full and read-only (a real small
/// tmpfs, mounted by the test: `make test` runs as root), the process killed in the middle of a disk-cache write,
/// an origin that resets mid-body, a client that leaves mid-response, 10,000 idle connections against the cap.
/// Every socket is on 127.0.0.1.
@Suite(.serialized) struct FaultTests {
    let fixture: ServerFixture
    init() throws { fixture = try ServerFixture() }

    @Test func aFullCacheDiskKeepsServingAndStopsWriting() async throws {
        let disk = try ScratchFilesystem(kibibytes: 256)
        let service = try fixture.service { $0.cacheDirectory = disk.path }
        let cache = try #require(service.pipeline.diskCache)
        // Distinct results (each some tens of KiB as PNG) until the 256 KiB file system is full, then more.
        var made: [(url: Substring, body: [UInt8])] = []
        var width = 600
        while cache.statistics.writeFailures == 0 && width > 300 {
            let url = Substring("/insecure/w:\(width)/plain/local:///b.jpg@png")
            let r = await service.respond(to: url)
            #expect(r.status == 200 && (try? imageSize(r.body))?.width == width)
            made.append((url, r.body))
            width -= 10
        }
        for extra in 0..<3 {
            let r = await service.respond(to: Substring("/insecure/w:\(200 + extra)/plain/local:///a.jpg@png"))
            #expect(r.status == 200, "serving goes on with the disk full")
        }
        let statistics = cache.statistics
        #expect(statistics.writes >= 1, "some entries fit before the disk filled")
        // One write failed (ENOSPC); the ones after it were not tried.
        #expect(statistics.writeFailures == 1 && statistics.writesSkipped == 3 && !cache.isWriting, "\(statistics)")
        service.metrics.refresh(from: service.pipeline.ledger, downloads: nil)
        let metrics = service.metrics.registry.render()
        #expect(metrics.contains("shrink_disk_cache_write_failures_total 1"), "\(metrics)")
        #expect(metrics.contains("shrink_disk_cache_writing 0"), "\(metrics)")
        // Nothing half-written: no temporary left, and every entry there is served as it was made.
        let names = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
        let entries = names.filter { $0.hasSuffix(".entry") }.count
        #expect(entries == statistics.writes)
        let reopened = try fixture.service { $0.cacheDirectory = disk.path }
        var hits = 0
        for (url, body) in made {
            let r = await reopened.respond(to: url)
            #expect(r.status == 200 && r.body == body)
            if r.header("X-Shrink-Origin") == "diskCache" { hits += 1 }
        }
        #expect(hits == entries && reopened.pipeline.diskCache?.statistics.corruptDropped == 0)
    }

    @Test func aReadOnlyCacheDirectoryIsReadAndNotWritten() async throws {
        let disk = try ScratchFilesystem(kibibytes: 1024)
        let stored: Substring = "/insecure/w:120/plain/local:///a.jpg@webp"
        let made = await (try fixture.service { $0.cacheDirectory = disk.path }).respond(to: stored)
        #expect(made.status == 200)
        try disk.remountReadOnly()
        let service = try fixture.service { $0.cacheDirectory = disk.path }
        let hit = await service.respond(to: stored)
        #expect(hit.header("X-Shrink-Origin") == "diskCache" && hit.body == made.body)
        for width in [100, 90] {
            let r = await service.respond(to: Substring("/insecure/w:\(width)/plain/local:///a.jpg@webp"))
            #expect(r.status == 200 && r.header("X-Shrink-Origin") == "decoded")
        }
        let statistics = try #require(service.pipeline.diskCache).statistics
        #expect(
            statistics.writeFailures == 1 && statistics.writesSkipped == 1 && statistics.writes == 0, "\(statistics)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).count == 1)
    }

    /// SIGKILL while an entry is being written (the process stopped the moment its temporary file appears, and
    /// killed only if the file is still there, unnamed): the next start removes the temporary, serves no torn
    /// entry, and serves every finished entry byte for byte as first made (compared by SHA-256). An entry torn
    /// as a power loss would leave it (cut short) is decoded again, never served.
    @Test func aServerKilledMidWriteServesNoTornEntry() async throws {
        let cache = fixture.root + "-cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // Noise, so that each entry (the whole image as PNG) is megabytes and its write takes milliseconds.
        var state: UInt32 = 12345
        let noise = (0..<2000 * 1500 * 3).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let big = try TestImages.jpeg(
            PixelBuffer(format: .rgb8, size: PixelSize(width: 2000, height: 1500), bytes: noise), quality: 90)
        for i in 0..<15 { try fixture.write("big\(i).jpg", big) }
        let watch = try CreationWatch(directory: cache)
        let first = try await ServeProcess(["--root", fixture.root, "--cache-dir", cache, "--budget", "256M"])
        var made: [(url: String, sha: String)] = []
        var caught: String?
        for i in 0..<15 where caught == nil {
            let url = "/insecure/plain/local:///big\(i).jpg@png"
            let port = first.port
            let request = Task { try await RawHTTP.get(port: port, url) }
            let temporary = try #require(
                try await RawHTTP.onThread { watch.next(containing: ".tmp-", within: 60) }, "no cache write began")
            // Three entries are finished first; then the process is stopped as each write begins.
            if made.count >= 3 {
                kill(first.pid, SIGSTOP)
                if FileManager.default.fileExists(atPath: cache + "/" + temporary) {
                    caught = temporary
                    first.end(with: SIGKILL)
                    _ = try? await request.value
                    break
                }
                kill(first.pid, SIGCONT)
            }
            let r = try await request.value
            #expect(r.status == 200)
            made.append((url, SHA256.hex(r.body)))
        }
        let torn = try #require(caught, "the kill never landed inside a write in 12 tries")
        // What a power loss could leave: one finished entry cut short.
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".entry") }
        #expect(entries.count == made.count)
        let cut = cache + "/" + (try #require(entries.first))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: cut)[.size] as? Int)
        #expect(truncate(cut, off_t(size / 2)) == 0)

        let second = try await ServeProcess(["--root", fixture.root, "--cache-dir", cache, "--budget", "256M"])
        #expect(!FileManager.default.fileExists(atPath: cache + "/" + torn), "the temporary is swept at start")
        var origins: [String: Int] = [:]
        for (url, sha) in made {
            let r = try await RawHTTP.get(port: second.port, url)
            #expect(r.status == 200 && SHA256.hex(r.body) == sha, "\(url)")
            origins[r.headers["x-shrink-origin"] ?? "?", default: 0] += 1
        }
        #expect(origins == ["diskCache": made.count - 1, "decoded": 1], "\(origins)")
        #expect(second.end(with: SIGTERM) == 0)
    }

    /// An origin that resets mid-body: 502, not publicly cacheable, nothing cached (the next request fetches
    /// again and succeeds), its download reservation given back.
    @Test func anOriginResetMidBodyIsNotCached() async throws {
        let body = try TestImages.jpeg(TestImages.pattern(width: 320, height: 240))
        let calls = Mutex(0)
        let origin = try RawOrigin { _, fd in
            guard
                calls.withLock({
                    $0 += 1; return $0
                }) > 1
            else {
                RawOrigin.reply(
                    fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: Array(body.prefix(200)))
                var l = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
                return
            }
            RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: body)
        }
        defer { origin.stop() }
        let pattern = try SourcePattern("http://127.0.0.1:\(origin.port)/")
        let service = try fixture.service { c in
            c.allowedSources = [pattern]
            c.allowedPrivateHosts = ["127.0.0.1:\(origin.port)"]
        }
        let url = Substring("/insecure/w:64/plain/http://127.0.0.1:\(origin.port)/p.jpg")
        let reset = await service.respond(to: url)
        #expect(reset.status == 502 && reset.header("Cache-Control") == "no-store", "\(reset.status)")
        #expect(service.remote?.downloads.used == 0)
        let again = await service.respond(to: url)
        #expect(again.status == 200 && again.header("X-Shrink-Origin") == "decoded")
        #expect(origin.hits == 2)
        try await waitUntil { service.remote?.downloads.used == 0 }
    }

    /// A client that reads the head and a little of a large body, then resets: the server lets the connection
    /// go, holds nothing for it and goes on serving.
    @Test func aClientLeavingMidResponseIsLetGo() async throws {
        try fixture.write("big.jpg", try TestImages.jpeg(TestImages.pattern(width: 2400, height: 1800), quality: 90))
        let service = try LiveServerTests.configured(fixture)
        try await LiveServerTests.withServer(service) { port, server in
            let received = try await RawHTTP.onThread { () throws -> Int in
                let fd = try RawHTTP.connect(port: port)
                RawHTTP.send(fd, "GET /insecure/plain/local:///big.jpg@png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                var buffer = [UInt8](repeating: 0, count: 65536)
                var total = 0
                while total < 100_000 {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    total += n
                }
                var l = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
                close(fd)
                return total
            }
            #expect(received >= 100_000, "the response had begun: \(received) bytes")
            try await waitUntil { server.connections.current == 0 }
            // The decode's charge is given back just after its result is handed over (the response may begin first).
            try await waitUntil {
                let ledger = service.pipeline.ledger
                return ledger.runningDecodes == 0 && ledger.runningCharge == 0 && ledger.waitingTasks == 0
            }
            let next = try await RawHTTP.get(port: port, "/insecure/w:50/plain/local:///a.jpg")
            #expect(next.status == 200 && (try? imageSize(next.body)) == PixelSize(width: 50, height: 38))
        }
    }

    /// 10,000 connections opened at once and left idle, against a cap of 256: the server never holds more than
    /// the cap, closes the excess as it accepts them and the held ones at the header deadline, and serves again
    /// once they are gone.
    @Test func tenThousandIdleConnectionsAgainstTheCap() async throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let needed: rlim_t = 10_000 + 2_048
        if limit.rlim_cur < needed {
            limit.rlim_cur = min(limit.rlim_max, needed)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        #expect(limit.rlim_cur >= needed, "10,000 client sockets need a descriptor limit of \(needed)")
        let service = try LiveServerTests.configured(fixture) { c in
            c.maxConnections = 256
            c.headerTimeout = .seconds(2)
        }
        try await LiveServerTests.withServer(service) { port, server in
            let outcome = try await RawHTTP.onThread { () throws -> (closed: Int, mostHeld: Int, seconds: Double) in
                let start = Date()
                var open: Set<Int32> = []
                for _ in 0..<10_000 { open.insert(try RawHTTP.connectWithoutWaiting(port: port)) }
                var mostHeld = 0
                var closed = 0
                var buffer = [UInt8](repeating: 0, count: 512)
                while !open.isEmpty && Date().timeIntervalSince(start) < 60 {
                    mostHeld = max(mostHeld, server.connections.current)
                    var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                    guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
                    for p in fds where p.revents != 0 {
                        // Readable with nothing to read (EOF) or an error (reset): the server closed it.
                        let n = recv(p.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                        if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                            open.remove(p.fd)
                            close(p.fd)
                            closed += 1
                        }
                    }
                }
                for fd in open { close(fd) }
                return (closed, mostHeld, Date().timeIntervalSince(start))
            }
            #expect(outcome.closed == 10_000, "closed by the server within 60 s: \(outcome)")
            #expect(outcome.mostHeld <= 256, "\(outcome)")
            try await waitUntil { server.connections.current == 0 }
            #expect(try await RawHTTP.get(port: port, "/health").status == 200)
        }
    }
}
