import Foundation
import Shrink
import ShrinkTestSupport
import Synchronization
import Testing
@testable import ShrinkServer
@testable import ShrinkServerURL

/// The shared result tier: services ("nodes") over the same local root, each with its own memory tier and no disk
/// tier, sharing one bucket of moto's S3 server on 127.0.0.1 (authentication on); and a scripted store for the ways
/// a store fails. Nothing here connects outside 127.0.0.0/8.
@Suite struct ResultStoreTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func node(
        store port: Int, credentials: AWSCredentials?, timeout: Duration = .seconds(2),
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> ImageService {
        try fixture.service { c in
            c.s3.scheme = "http"
            c.s3.host = "127.0.0.1"
            c.s3.port = port
            c.s3.credentials = credentials
            c.resultStore = ("results", "thumbs/v1")
            c.resultStoreTimeout = timeout
            configure(&c)
        }
    }

    func get(_ service: ImageService, _ path: String = "/insecure/w:64/plain/local:///a.jpg@png") async
        -> ServerResponse
    {
        await service.respond(to: Substring(path))
    }

    @Test func aResultMadeOnOneNodeIsServedByTheOthersWithoutADecode() async throws {
        let moto = try await MotoServer()
        try await moto.makeBucket("results")
        let credentials = AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)
        let a = try node(store: moto.port, credentials: credentials)
        let made = await get(a)
        #expect(made.status == 200 && made.header("X-Shrink-Origin") == "decoded")
        try await waitUntil { a.resultStore?.statistics.writes == 1 }
        #expect(a.resultStore?.statistics.misses == 1)

        // The object: content-addressed under the prefix, with its checksum, length, format and size.
        let store = try #require(a.resultStore)
        let names = try await moto.boto3(
            """
            for o in s3.list_objects_v2(Bucket="results")["Contents"]:
                h = s3.head_object(Bucket="results", Key=o["Key"])
                m = h["Metadata"]
                print(o["Key"], o["Size"], h["ContentType"], m["shrink-format"], m["shrink-size"], m["shrink-length"])
            """)
        let parts = names.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(parts.count == 6 && parts[0].hasPrefix("thumbs/v1/") && parts[0].count == "thumbs/v1/".count + 64)
        #expect(parts.dropFirst() == ["\(made.body.count)", "image/png", "png", "64x48", "\(made.body.count)"])
        #expect(parts[0].dropFirst("thumbs/v1/".count).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(store.location(for: "k").key == "thumbs/v1/" + SHA256.hex(Array("k".utf8)))

        // A second node, its memory empty: the stored bytes, no decode; then from its own memory tier.
        let b = try node(store: moto.port, credentials: credentials)
        let shared = await get(b)
        #expect(shared.status == 200 && shared.header("X-Shrink-Origin") == "sharedStore")
        #expect(shared.body == made.body && shared.header("ETag") == made.header("ETag"))
        #expect(await get(b).header("X-Shrink-Origin") == "memoryCache")
        #expect(fixture.decodeCount == 1)
        #expect(b.resultStore?.statistics.hits == 1 && b.resultStore?.statistics.writes == 0)

        // An object altered in the bucket (another body under the same name and metadata) fails its check: decoded
        // again, and written over, so the next node is served the right bytes.
        let key = parts[0]
        try await moto.boto3(
            """
            h = s3.head_object(Bucket="results", Key=sys.argv[1])
            s3.put_object(Bucket="results", Key=sys.argv[1], Body=b"\\x89PNG not this", Metadata=h["Metadata"],
                          ContentType="image/png")
            """, [key])
        let c = try node(store: moto.port, credentials: credentials)
        let again = await get(c)
        #expect(again.status == 200 && again.header("X-Shrink-Origin") == "decoded" && again.body == made.body)
        #expect(c.resultStore?.statistics.rejected == 1)
        try await waitUntil { c.resultStore?.statistics.writes == 1 }
        let d = try node(store: moto.port, credentials: credentials)
        #expect(await get(d).header("X-Shrink-Origin") == "sharedStore")
        #expect(fixture.decodeCount == 2)

        // A size the photo cannot reach (400 px wide, no enlarging) makes the same result as another: node a answers
        // it from that one (its result index), and writes it under its own key too, so that node e finds it.
        #expect(await get(a, "/insecure/w:500/plain/local:///a.jpg@png").header("X-Shrink-Origin") == "decoded")
        let alias = await get(a, "/insecure/w:600/plain/local:///a.jpg@png")
        #expect(alias.status == 200 && alias.header("X-Shrink-Origin") == "memoryCache")
        try await waitUntil { a.resultStore?.statistics.writes == 3 }
        let e = try node(store: moto.port, credentials: credentials)
        let found = await get(e, "/insecure/w:600/plain/local:///a.jpg@png")
        #expect(found.header("X-Shrink-Origin") == "sharedStore" && found.body == alias.body)
        #expect(fixture.decodeCount == 3)

        // /metrics carries the tier's counts.
        d.metrics.refresh(from: d.pipeline.ledger, downloads: d.remote?.downloads, resultStore: d.resultStore)
        let text = d.metrics.registry.render()
        #expect(text.contains("shrink_result_store_hits_total 1") && text.contains("shrink_result_store_bypassed 0"))
        #expect(text.contains("shrink_cache_hits_total{tier=\"shared\"} 1"))
    }

    @Test func aStoreThatFailsIsBypassedAndNothingFails() async throws {
        let png = [UInt8](repeating: 7, count: 4000)
        let mode = Mutex("hang")
        let origin = try RawOrigin { line, fd in
            switch mode.withLock({ $0 }) {
            case "hang": Thread.sleep(forTimeInterval: 2)
            case "truncated" where line.hasPrefix("GET"):
                // A torn object: the length it claims, half its bytes, the connection closed.
                RawOrigin.reply(
                    fd,
                    "HTTP/1.1 200 OK\r\nContent-Length: \(png.count)\r\nx-amz-meta-shrink-sha256: \(SHA256.hex(png))\r\n"
                        + "x-amz-meta-shrink-length: \(png.count)\r\nConnection: close\r\n\r\n",
                    body: Array(png.prefix(png.count / 2)))
            default: RawOrigin.reply(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            }
        }
        let service = try node(store: origin.port, credentials: nil, timeout: .milliseconds(300))
        let store = try #require(service.resultStore)
        // Lookups that time out open the breaker; every request is answered by decoding all the same.
        for width in 60..<66 {
            let r = await get(service, "/insecure/w:\(width)/plain/local:///a.jpg@png")
            #expect(r.status == 200 && r.header("X-Shrink-Origin") == "decoded")
        }
        // Lookups and the background writes of their results both count toward the breaker.
        let failures = store.statistics.errors + store.statistics.writeErrors
        #expect(store.isBypassed && store.statistics.errors >= 1 && failures >= store.breaker.threshold)
        try await Task.sleep(for: .milliseconds(700))
        let before = origin.hits
        // While it is open, the store is not asked (no connection, no wait): the lookup and the write are skipped.
        let skipped = store.statistics.skipped
        let bypassed = await get(service, "/insecure/w:70/plain/local:///a.jpg@png")
        #expect(bypassed.status == 200 && store.statistics.skipped >= skipped + 1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(origin.hits == before)

        // A torn object is never served: a miss, decoded (with the breaker closed again by a trial).
        mode.withLock { $0 = "truncated" }
        let fresh = try node(store: origin.port, credentials: nil, timeout: .milliseconds(300))
        let torn = await get(fresh, "/insecure/w:50/plain/local:///a.jpg@png")
        #expect(torn.status == 200 && torn.header("X-Shrink-Origin") == "decoded")
        #expect(fresh.resultStore?.statistics.hits == 0 && fresh.resultStore?.statistics.errors == 1)
    }

    @Test func theStoreIsConfiguredAsABucketAndAPrefix() throws {
        let c = try ServerConfiguration(environment: [
            "SHRINK_RESULT_STORE": "s3://results/a/b/", "SHRINK_S3_ENDPOINT": "http://127.0.0.1:9000",
            "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s", "SHRINK_RESULT_STORE_TIMEOUT": "0.5",
        ])
        #expect(c.resultStore?.bucket == "results" && c.resultStore?.prefix == "a/b")
        #expect(c.resultStoreTimeout == .milliseconds(500) && !c.s3.servesSources && c.s3.credentials != nil)
        #expect(c.summary.contains { $0.contains("result store s3://results/a/b") })
        #expect(try ServerConfiguration(environment: ["SHRINK_RESULT_STORE": "s3://results"]).resultStore?.prefix == "")
        for bad in ["results", "s3://R/x", "s3://results/../x", "http://results/x", "s3://results/x?y"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try ServerConfiguration(environment: ["SHRINK_RESULT_STORE": bad])
            }
        }
    }
}
