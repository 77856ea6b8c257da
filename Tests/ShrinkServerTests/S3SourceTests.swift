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

/// `s3://` sources against moto's S3 server on 127.0.0.1 (requests authenticated: a wrong signature is refused as S3
/// refuses it), and against a scripted store (a raw socket on 127.0.0.1) for what moto cannot be made to do: hang,
/// cut a body, redirect, count requests. Nothing here connects outside 127.0.0.0/8.
/// The moto tests start their own server each (about two seconds).
@Suite struct S3SourceTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func service(
        endpoint port: Int, buckets: Set<String>, credentials: AWSCredentials?,
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> ImageService {
        try fixture.service { c in
            var s3 = S3Settings()
            s3.scheme = "http"
            s3.host = "127.0.0.1"
            s3.port = port
            s3.allowedBuckets = buckets
            s3.credentials = credentials
            s3.servesSources = true
            c.s3 = s3
            c.firstByteTimeout = .seconds(1)
            c.downloadTimeout = .seconds(2)
            c.maxSourceBytes = 1 << 20
            configure(&c)
        }
    }

    func get(_ service: ImageService, _ source: String, options: String = "w:64", ifNoneMatch: String? = nil) async
        -> ServerResponse
    {
        await service.respond(
            to: Substring("/insecure/\(options)/plain/" + SignedPath.escape(source) + "@jpg"), ifNoneMatch: ifNoneMatch)
    }

    @Test func objectsAreReadSignedFromMoto() async throws {
        let moto = try await MotoServer()
        try await moto.makeBucket("photos")
        try await moto.makeBucket("private")
        // moto's own signature check mis-reads keys with other escapes (`é`, `+`, `(`, `&`: boto3's requests fail it
        // too); AWSSignatureV4Tests checks such keys against botocore's signer.
        let key = "summer 2026/photo 1.jpg"
        try await moto.put(try TestImages.jpeg(TestImages.pattern(width: 320, height: 240)), bucket: "photos", key: key)
        try await moto.put(
            try TestImages.jpeg(TestImages.pattern(width: 320, height: 240)), bucket: "private", key: "a.jpg")
        let credentials = AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)
        let service = try service(endpoint: moto.port, buckets: ["photos"], credentials: credentials)

        let first = await get(service, "s3://photos/" + key)
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect(try imageSize(first.body) == PixelSize(width: 64, height: 48))
        #expect(first.header("X-Shrink-Origin") == "decoded")
        let again = await get(service, "s3://photos/" + key)
        #expect(again.header("X-Shrink-Origin") == "memoryCache" && again.header("ETag") == first.header("ETag"))
        #expect(fixture.decodeCount == 1)
        // The download's reservation came back once the bytes were decoded and freed.
        try await waitUntil { service.remote?.downloads.used == 0 }

        // An allowed bucket's missing object is a 404; a bucket not allowed is refused before any request.
        #expect(await get(service, "s3://photos/missing.jpg").status == 404)
        #expect(await get(service, "s3://private/a.jpg").status == 403)
        // Sources that are not s3:// sources Shrink reads: a bad bucket name, a dot segment, no key.
        for bad in ["s3://Photos/a.jpg", "s3://photos/a/../b.jpg", "s3://photos/", "s3://photos"] {
            #expect(await get(service, bad).status == 404, "\(bad)")
        }

        // A wrong secret: moto refuses the signature (SignatureDoesNotMatch), which is the store failing: 502.
        let wrong = try self.service(
            endpoint: moto.port, buckets: ["photos"],
            credentials: AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: "not-the-secret"))
        let refused = await get(wrong, "s3://photos/" + key)
        #expect(refused.status == 502 && refused.header("Cache-Control") == "no-store")
    }

    @Test func versionsAndChangedObjectsAreTheirOwnResults() async throws {
        let moto = try await MotoServer()
        try await moto.makeBucket("versions", versioned: true)
        let wide = try await moto.put(
            try TestImages.jpeg(TestImages.pattern(width: 320, height: 240)), bucket: "versions", key: "p.jpg")
        let credentials = AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)
        // Validators asked again on every request, so that the change below is seen at once.
        let service = try service(endpoint: moto.port, buckets: ["versions"], credentials: credentials) {
            $0.s3.validatorLifetime = .zero
        }
        let before = await get(service, "s3://versions/p.jpg")
        #expect(try imageSize(before.body) == PixelSize(width: 64, height: 48))
        // The client's copy is still current: 304, no decode.
        let same = await get(service, "s3://versions/p.jpg", ifNoneMatch: before.header("ETag"))
        #expect(same.status == 304)

        try await moto.put(
            try TestImages.jpeg(TestImages.pattern(width: 240, height: 320)), bucket: "versions", key: "p.jpg")
        // The object changed: its new validator makes a new result and a new ETag, and the old ETag is not current.
        let after = await get(service, "s3://versions/p.jpg", ifNoneMatch: before.header("ETag"))
        #expect(after.status == 200 && after.header("ETag") != before.header("ETag"))
        #expect(try imageSize(after.body) == PixelSize(width: 64, height: 85))
        // The first version, by id, both spellings.
        for source in ["s3://versions/p.jpg?\(wide.version)", "s3://versions/p.jpg?versionId=\(wide.version)"] {
            let old = await get(service, source)
            #expect(old.status == 200, "\(source)")
            #expect(try imageSize(old.body) == PixelSize(width: 64, height: 48))
        }
        #expect(await get(service, "s3://versions/p.jpg?no-such-version").status != 200)
        #expect(fixture.decodeCount == 3)
    }

    /// A store scripted per request line; each connection is one request.
    func store(_ answer: @escaping @Sendable (String) -> (head: String, body: [UInt8])?) throws -> RawOrigin {
        try RawOrigin { line, fd in
            guard let (head, body) = answer(line) else { return }
            RawOrigin.reply(fd, head, body: body)
        }
    }

    @Test func aKnownValidatorAnswers304WithoutAskingTheStore() async throws {
        let jpeg = try TestImages.jpeg(TestImages.pattern(width: 320, height: 240))
        let origin = try store { line in
            let head = "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Length: \(jpeg.count)\r\nConnection: close\r\n\r\n"
            return (head, line.hasPrefix("HEAD") ? [] : jpeg)
        }
        let service = try service(endpoint: origin.port, buckets: ["b-1"], credentials: nil)
        let first = await get(service, "s3://b-1/k.jpg")
        #expect(first.status == 200)
        #expect(origin.hits == 2) // the HEAD that learned the validator, then the GET
        let etag = try #require(first.header("ETag"))
        for _ in 0..<3 {
            #expect(await get(service, "s3://b-1/k.jpg", ifNoneMatch: etag).status == 304)
        }
        // Another size of the same object: the validator is known, so only its GET.
        #expect(await get(service, "s3://b-1/k.jpg", options: "w:32").status == 200)
        #expect(origin.hits == 3)
    }

    @Test func aFailingStoreIsAnErrorAndNeverCached() async throws {
        let jpeg = try TestImages.jpeg(TestImages.pattern(width: 320, height: 240))
        let ok = "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nConnection: close\r\n"
        let origin = try store { line in
            let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let head = line.hasPrefix("HEAD")
            switch path {
            case "/b-1/hang.jpg" where !head:
                Thread.sleep(forTimeInterval: 10)
                return nil
            case "/b-1/cut.jpg" where !head:
                return (ok + "Content-Length: \(jpeg.count)\r\n\r\n", Array(jpeg.prefix(jpeg.count / 2)))
            case "/b-1/big.jpg" where !head:
                // No Content-Length: the cap must stop the body, not a header.
                return (ok + "\r\n", [UInt8](repeating: 0xFF, count: 4 << 20))
            case "/b-1/moved.jpg":
                return (
                    "HTTP/1.1 301 Moved Permanently\r\nLocation: http://127.0.0.1:1/x\r\nContent-Length: 0\r\n\r\n", []
                )
            case "/b-1/denied.jpg":
                let body = Array("<Error><Code>AccessDenied</Code></Error>".utf8)
                return ("HTTP/1.1 403 Forbidden\r\nContent-Length: \(body.count)\r\n\r\n", head ? [] : body)
            default:
                return (ok + "Content-Length: \(jpeg.count)\r\n\r\n", head ? [] : jpeg)
            }
        }
        let service = try service(endpoint: origin.port, buckets: ["b-1"], credentials: nil)

        // A deadline (first byte 1 s, the whole exchange 2 s) ends it: 504. (The store would have closed the connection
        // after 10 s with no answer, a 502; a wall-clock bound would measure the test machine's load, not the deadline.)
        let hang = await get(service, "s3://b-1/hang.jpg")
        #expect(hang.status == 504)

        for _ in 0..<2 {
            let cut = await get(service, "s3://b-1/cut.jpg")
            #expect(cut.status == 502 && cut.header("Cache-Control") == "no-store")
        }
        #expect(await get(service, "s3://b-1/big.jpg").status == 413)
        #expect(await get(service, "s3://b-1/moved.jpg").status == 502)
        #expect(await get(service, "s3://b-1/denied.jpg").status == 502)
        let before = origin.hits
        #expect(await get(service, "s3://not-allowed/a.jpg").status == 403)
        #expect(origin.hits == before)
        // Nothing was decoded from a failed download, and every reservation came back.
        #expect(fixture.decodeCount == 0)
        try await waitUntil { service.remote?.downloads.used == 0 }
    }

    @Test func locationsAreReadStrictly() throws {
        let plain = S3Location("s3://photos/a/b c.jpg")
        #expect(plain == S3Location(bucket: "photos", key: "a/b c.jpg"))
        #expect(S3Location("s3://my.bucket_1/k?3HL4kqtJlcpXroDTDmJ")?.versionID == "3HL4kqtJlcpXroDTDmJ")
        #expect(S3Location("s3://b-1/k?versionId=abc")?.versionID == "abc")
        #expect(S3Location("S3://b-1/k//x")?.key == "k//x")
        // A location prints as a source that reads back as itself, whatever its version holds.
        for text in [
            "s3://b-1/k?abc", "s3://b-1/k?versionId=abc", "s3://b-1/k?versionId=versionId=v1", "s3://b-1/k?a?b",
        ] {
            let location = try #require(S3Location(text))
            #expect(S3Location(location.description) == location, "\(text) printed as \(location)")
        }
        #expect(S3Location("s3://b-1/k?versionId=versionId=v1")?.versionID == "versionId=v1")
        // Split at the `?` and `/` bytes, even where a Swift Character joins them to their neighbours.
        #expect(S3Location("s3://b-1/k\u{600}?versionId=v2")?.versionID == "v2")
        #expect(S3Location("s3://b-1/\u{301}k")?.key == "\u{301}k")
        // A store names objects by bytes: the same text in NFC and in NFD is two keys.
        #expect(S3Location(bucket: "b-1", key: "caf\u{E9}") != S3Location(bucket: "b-1", key: "cafe\u{301}"))
        #expect(
            Set([S3Location(bucket: "b-1", key: "caf\u{E9}"), S3Location(bucket: "b-1", key: "cafe\u{301}")]).count == 2
        )
        for bad in [
            "s3://ab/k", "s3://-ab/k", "s3://Abc/k", "s3://abc/", "s3://abc", "s3://abc/./k", "s3://abc/k/..",
            "s3://abc/k?", "s3://abc/k\u{1}", "s3://abc/k?versionId=", "http://abc/k", "s3://a b/k",
            "s3://abc/" + String(repeating: "k", count: 1025),
            // A dot segment behind a `/` that a combining mark or a prepended character joins into one Character.
            "s3://abc/a/../\u{301}b", "s3://abc/x\u{600}/../y", "s3://abc/x\u{600}/./y",
        ] {
            #expect(S3Location(bad) == nil, "\(bad)")
        }
    }

    @Test func settingsComeFromShrinkAndImgproxyNames() throws {
        #expect(try !ServerConfiguration(environment: [:]).s3.servesSources)
        let imgproxy = try ServerConfiguration(environment: [
            "IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": "http://127.0.0.1:9000",
            "IMGPROXY_S3_REGION": "eu-west-1",
            "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret",
        ])
        let s3 = imgproxy.s3
        #expect(s3.servesSources)
        #expect(s3.endpoint == "http://127.0.0.1:9000" && s3.region == "eu-west-1" && s3.usesPathStyle)
        #expect(s3.allowedBuckets.isEmpty && !s3.allows(bucket: "any"))
        #expect(s3.credentials == AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret"))
        #expect(imgproxy.imgproxyNames.contains("IMGPROXY_S3_ENDPOINT"))
        #expect(imgproxy.summary.contains { $0.contains("none allowed") })

        // Shrink's names win; allowing buckets turns S3 on; AWS's own endpoint is virtual-hosted.
        let shrink = try ServerConfiguration(environment: [
            "SHRINK_S3_ALLOWED_BUCKETS": "photos, archive", "IMGPROXY_S3_REGION": "eu-west-1",
            "SHRINK_S3_REGION": "us-west-2", "AWS_EC2_METADATA_DISABLED": "true", "HOME": "/nonexistent",
        ])
        let mine = shrink.s3
        #expect(mine.allowedBuckets == ["photos", "archive"] && mine.region == "us-west-2")
        #expect(mine.endpoint == "https://s3.us-west-2.amazonaws.com" && !mine.usesPathStyle && mine.credentials == nil)
        let client = ObjectStoreClient(
            settings: mine, fetcher: RemoteFetcher(configuration: shrink, downloads: DownloadBudget(capacity: 1)))
        #expect(
            client.address(of: S3Location(bucket: "photos", key: "a b/é.jpg", versionID: "v+1")).url
                == "https://photos.s3.us-west-2.amazonaws.com/a%20b/%C3%A9.jpg?versionId=v%2B1")

        for (name, value) in [
            ("SHRINK_S3_ALLOWED_BUCKETS", "Not_A_Bucket!"), ("SHRINK_S3_ENDPOINT", "ftp://x"),
            ("SHRINK_S3_ENDPOINT", "http://h/path"), ("SHRINK_S3_REGION", "eu west"), ("SHRINK_USE_S3", "maybe"),
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") {
                try ServerConfiguration(environment: ["SHRINK_USE_S3": "1"].merging([name: value]) { $1 })
            }
        }
    }
}
