import Foundation
import Shrink
import ShrinkTestSupport
import Testing
@testable import ShrinkServer
@testable import ShrinkServerURL

/// The gallery over a fixture root: pages from header reads only, escaping of hostile names, signed tile
/// URLs that the server then serves, access rules, uploads, the inspector's telemetry and the live strip.
@Suite struct GalleryTests {
    let fixture: ServerFixture
    init() throws { fixture = try ServerFixture() }

    static let loopback = IPAddress("127.0.0.1")
    static let keys = SigningKeys(pairs: [(Array("gallery-key".utf8), Array("salt".utf8))])

    func gallery(token: String? = nil, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Gallery {
        let service = try fixture.service { c in
            c.gallery = true
            c.keys = Self.keys
            configure(&c)
        }
        return try Gallery(service: service, token: token)
    }

    static func body(_ chunks: [[UInt8]] = []) -> AsyncStream<[UInt8]> {
        AsyncStream { c in
            for chunk in chunks { c.yield(chunk) }
            c.finish()
        }
    }

    func get(
        _ g: Gallery, _ target: String, remote: IPAddress? = loopback, host: String = "127.0.0.1:8080",
        authorization: String? = nil, cookie: String? = nil
    ) async -> ServerResponse {
        await g.respond(
            to: Gallery.Request(
                method: "GET", target: Substring(target), remote: remote,
                authorization: authorization, cookie: cookie, host: host), body: Self.body())
    }

    static func text(_ r: ServerResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    static func attributes(_ name: String, in html: String) -> [String] {
        html.components(separatedBy: " \(name)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func aFolderPageIsMadeFromHeadersAndItsTilesAreServable() async throws {
        let g = try gallery()
        let r = await get(g, "/_/browse/")
        #expect(r.status == 200)
        #expect(
            r.headers.contains {
                $0 == (
                    "Content-Security-Policy",
                    "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
                )
            })
        #expect(r.headers.contains { $0.0 == "X-Robots-Tag" && $0.1.contains("noindex") })
        let html = Self.text(r)
        #expect(!html.contains("<script>") && !html.contains("style=") && !html.contains(" onload"))
        #expect(g.service.pipeline.ledger.decodesStarted == 0, "rendering a page decodes nothing")
        // Displayed sizes from the header: tall.jpg is stored 300 × 400 with orientation 6.
        #expect(Self.attributes("width", in: html) == ["400", "640", "400"])
        #expect(Self.attributes("height", in: html) == ["300", "480", "300"])
        #expect(Self.attributes("alt", in: html) == ["a.jpg", "b.jpg", "tall.jpg"])
        // Every srcset candidate is a signed URL the server answers with an image exactly as wide as its
        // descriptor says (so a browser knows its density); fits that would repeat a smaller one are left out:
        // 400 px wide images have three candidates (240, 320, 400), the 640 px one three (240, 320, 640).
        let candidates = Self.attributes("srcset", in: html).flatMap { $0.components(separatedBy: ", ") }
        #expect(candidates.count == 9)
        #expect(
            candidates.map { $0.split(separator: " ")[1] } == [
                "240w", "320w", "400w", "240w", "320w", "640w", "240w", "320w", "400w",
            ])
        for candidate in candidates {
            let parts = candidate.split(separator: " ")
            let url = String(parts[0]).replacingOccurrences(of: "&amp;", with: "&")
            let answer = await g.service.respond(to: Substring(url))
            #expect(answer.status == 200, "\(url): \(answer.status) \(Self.text(answer))")
            let size = try imageSize(answer.body)
            #expect(size.width == Int(parts[1].dropLast())!)
        }
    }

    /// Security review, hole 6: the tile cache was keyed by the resolved path, so a symlink listed after its
    /// target showed the target's tile, under the target's name and URL.
    @Test func aSymlinkHasItsOwnTile() async throws {
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/link.jpg", withDestinationPath: "b.jpg")
        let g = try gallery()
        let target = g.index.tile(folder: "/", raw: Array("b.jpg".utf8))
        let link = g.index.tile(folder: "/", raw: Array("link.jpg".utf8))
        #expect(target.name == "b.jpg" && target.path == "/b.jpg")
        #expect(link.name == "link.jpg" && link.path == "/link.jpg", "\(link.name) \(link.path ?? "-")")
        #expect(link.info?.displayedSize == target.info?.displayedSize && link.bytes == target.bytes)
        let page = Self.text(await get(g, "/_/browse/"))
        #expect(page.contains("link.jpg"), "\(page)")
    }

    @Test func hostileNamesAreEscapedAndStillServed() async throws {
        let jpeg = try TestImages.jpeg(TestImages.pattern(width: 64, height: 48))
        let names = [
            "<script>alert(1)<\u{2F}script>.jpg", "<img src=x onerror=alert(1)>.jpg", "quote\"and'apostrophe.jpg",
            "100% & more.jpg", "\u{202E}gpj.evil.jpg",
            "space name #1?.jpg", "back\\slash {x}|^`.jpg",
            // A quote joined to a combining mark is one character: an escaper that works on characters misses it.
            "q\"\u{301} autofocus onfocus=alert(1).jpg",
        ]
        try FileManager.default.createDirectory(atPath: fixture.root + "/odd", withIntermediateDirectories: true)
        for name in names where !name.contains("/") { try fixture.write("odd/" + name, jpeg) }
        // A name that is not UTF-8.
        let raw = Array((fixture.root + "/odd/").utf8) + [0x62, 0xFF, 0xFE, 0x2E, 0x6A, 0x70, 0x67]
        let fd = raw.withUnsafeBufferPointer { p in
            (p.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644)
            }
        }
        #expect(fd >= 0)
        _ = jpeg.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let g = try gallery()
        let html = Self.text(await get(g, "/_/browse/odd/"))
        #expect(!html.contains("<script>alert"), "names are escaped")
        #expect(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;.jpg") == false, "a / in a name cannot exist on disk")
        // A name with markup but no slash exists on disk: it is shown, escaped, and never becomes an element.
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;.jpg"), "markup in a name is escaped")
        #expect(!html.contains("<img src=x"), "markup in a name never becomes an element")
        #expect(html.contains("quote&quot;and&#39;apostrophe.jpg"))
        #expect(html.contains("100% &amp; more.jpg"))
        let bytes = Array(html.utf8), quoteAndMark = Array("\"\u{301}".utf8)
        #expect(
            !bytes.indices.contains { bytes[$0...].starts(with: quoteAndMark) },
            "a quote is escaped whatever follows it")
        #expect(html.contains("q&quot;\u{301} autofocus onfocus=alert(1).jpg"))
        #expect(!html.contains("\u{202E}"), "bidirectional overrides are neutralised")
        #expect(html.contains("\u{FFFD}gpj.evil.jpg"))
        #expect(html.contains("not valid UTF-8"), "the file whose name is not UTF-8 is a readable error tile")
        let sources = Self.attributes("src", in: html).filter { $0.hasPrefix("/") && !$0.hasPrefix("/_/") }
        #expect(sources.count == names.count - 1)
        for url in sources {
            // What a browser sends: the attribute unescaped; the server's signature must match it byte for byte.
            let target = url.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'")
            #expect(!target.contains("<") && !target.contains("\"") && !target.contains("\\") && !target.contains(" "))
            let answer = await g.service.respond(to: Substring(target))
            #expect(answer.status == 200, "\(target): \(answer.status) \(Self.text(answer))")
        }
    }

    @Test func accessIsLoopbackOnlyWithoutATokenAndTokenOnlyWithOne() async throws {
        let open = try gallery()
        #expect(await get(open, "/_/browse/").status == 200)
        #expect(await get(open, "/_/browse/", remote: IPAddress("::1")).status == 200)
        #expect(await get(open, "/_/browse/", remote: IPAddress("::ffff:127.0.0.2")).status == 200)
        #expect(await get(open, "/_/browse/", remote: IPAddress("192.168.1.20")).status == 403)
        #expect(await get(open, "/_/stats", remote: IPAddress("10.0.0.1")).status == 403)
        #expect(await get(open, "/_/browse/", remote: nil).status == 403)
        #expect(await get(open, "/_/browse/", host: "localhost:8080").status == 200)
        #expect(await get(open, "/_/browse/", host: "[::1]:8080").status == 200)
        // DNS rebinding (a page whose own name resolves to 127.0.0.1) or a proxy on this machine: refused.
        #expect(await get(open, "/_/browse/", host: "evil.example:8080").status == 421)
        #expect(await get(open, "/_/browse/", host: "127.0.0.1.evil.example").status == 421)
        #expect(await get(open, "/_/browse/../").status == 400)
        #expect(await get(open, "/_/inspect/odd/../a.jpg").status == 400)
        #expect(await get(open, "/_/browse/.git/").status == 404)

        let closed = try gallery(token: "s3cret-token-0123456789")
        let page = await get(closed, "/_/browse/")
        #expect(page.status == 401 && Self.text(page).contains("action=\"/_/login\""), "loopback needs the token too")
        #expect(await get(closed, "/_/browse/", authorization: "Bearer s3cret-token-0123456789").status == 200)
        #expect(
            await get(
                closed, "/_/browse/", remote: IPAddress("203.0.113.9"), authorization: "Bearer s3cret-token-0123456789"
            ).status == 200)
        #expect(await get(closed, "/_/browse/", authorization: "Bearer wrong").status == 401)
        let bad = await closed.respond(
            to: Gallery.Request(method: "POST", target: "/_/login", remote: Self.loopback),
            body: Self.body([Array("token=nope".utf8)]))
        #expect(bad.status == 401)
        let login = await closed.respond(
            to: Gallery.Request(method: "POST", target: "/_/login", remote: Self.loopback),
            body: Self.body([Array("token=s3cret-token-0123456789".utf8)]))
        #expect(login.status == 303)
        let setCookie = try #require(login.headers.first { $0.0 == "Set-Cookie" }?.1)
        #expect(
            setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Max-Age=")
                && !setCookie.contains("s3cret"))
        let cookie = String(setCookie.prefix { $0 != ";" })
        #expect(await get(closed, "/_/browse/", cookie: "other=1; " + cookie).status == 200)
        #expect(await get(closed, "/_/browse/", cookie: GalleryAccess.cookieName + "=forged").status == 401)
        // The style sheet and script are public (the login page needs them); they hold nothing secret.
        #expect(await get(closed, "/_/gallery.css").status == 200)
    }

    /// Security review, hole 6: `proxy_pass http://127.0.0.1:8080` makes every client a loopback peer naming a
    /// loopback host, so the gallery was open to all without a token. A request carrying a forwarding header is not
    /// trusted as loopback; sessions expire and end with the token; logins are rate-limited per address.
    @Test func aProxyIsNotLoopbackAndSessionsExpire() async throws {
        let open = try gallery()
        let proxied = await open.respond(
            to: Gallery.Request(
                method: "GET", target: "/_/browse/", remote: Self.loopback, host: "127.0.0.1:8080", forwarded: true),
            body: Self.body())
        #expect(proxied.status == 403)
        // Through the live server: the header itself is what is looked at.
        let service = try LiveServerTests.configured(fixture) { $0.gallery = true }
        try await LiveServerTests.withServer(service) { port in
            #expect(try await RawHTTP.get(port: port, "/_/browse/").status == 200)
            for header in ["X-Forwarded-For", "Forwarded", "Via", "X-Real-IP"] {
                let r = try await RawHTTP.get(port: port, "/_/browse/", headers: [header: "203.0.113.9"])
                #expect(r.status == 403, "\(header): \(r.status)")
            }
        }

        let token = "s3cret-token-0123456789"
        let closed = try gallery(token: token)
        let access = closed.access
        let now = 1_800_000_000
        let cookie = try #require(access.login(with: token, now: now))
        #expect(cookie.contains("Max-Age=\(GalleryAccess.sessionSeconds)"))
        let value = String(cookie.prefix { $0 != ";" })
        func decide(_ cookie: String, at time: Int, _ a: GalleryAccess = access) -> GalleryAccess.Decision {
            a.decide(remote: Self.loopback, host: "127.0.0.1", authorization: nil, cookieHeader: cookie, now: time)
        }
        #expect(decide(value, at: now + 60) == .allowed)
        #expect(decide(value, at: now + GalleryAccess.sessionSeconds + 1) == .loginRequired)
        // A later expiry written by hand does not verify; a new token ends every session.
        let forged = value.replacingOccurrences(
            of: "\(now + GalleryAccess.sessionSeconds)-", with: "\(now + 3 * 24 * 3600 + 1)-")
        #expect(forged != value && decide(forged, at: now + 60) == .loginRequired)
        #expect(decide(value, at: now + 60, GalleryAccess(token: token + "-rotated")) == .loginRequired)
        // A forwarded request with the token is served: the token, not the peer, opens it.
        #expect(
            access.decide(
                remote: Self.loopback, host: "127.0.0.1", authorization: "Bearer " + token, cookieHeader: nil,
                forwarded: true) == .allowed)

        // Five failed logins from one address, then 429 for it (even with the right token), not for another.
        func login(_ candidate: String, from remote: String) async -> ServerResponse {
            await closed.respond(
                to: Gallery.Request(method: "POST", target: "/_/login", remote: IPAddress(remote)),
                body: Self.body([Array("token=\(candidate)".utf8)]))
        }
        for _ in 0..<LoginLimiter.maxFailures {
            #expect(await login("guess", from: "198.51.100.7").status == 401)
        }
        let limited = await login(token, from: "198.51.100.7")
        #expect(limited.status == 429 && Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
        #expect(await login(token, from: "198.51.100.8").status == 303)
        // Wrong Bearer tokens count too, and an IPv6 client is counted by its /64.
        for i in 0..<LoginLimiter.maxFailures {
            let r = await get(
                closed, "/_/browse/", remote: IPAddress("2001:db8:1:2::\(i + 1)"), authorization: "Bearer no")
            #expect(r.status == 401)
        }
        let bearer = await get(
            closed, "/_/browse/", remote: IPAddress("2001:db8:1:2::99"), authorization: "Bearer " + token)
        #expect(bearer.status == 429)
        #expect(
            await get(closed, "/_/browse/", remote: IPAddress("2001:db8:1:3::1"), authorization: "Bearer " + token)
                .status == 200)
    }

    /// Security review, hole 5 (part): a server killed during an upload left its `.part` file behind, and nothing
    /// swept it. The gallery sweeps, when it starts, the upload temporaries older than an hour.
    @Test func staleUploadTemporariesAreSweptAtStart() async throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: fixture.root + "/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: fixture.root + "/.hidden", withIntermediateDirectories: true)
        let old = Date(timeIntervalSinceNow: -2 * Double(GalleryUpload.staleSeconds))
        var names: [String: Bool] = [:] // path: swept
        for (name, stale, swept) in [
            ("sub/.upload-123.part", true, true), (".upload-9.part", true, true),
            ("sub/.upload-456.part", false, false),
            ("sub/.upload-x.part", true, false), ("sub/photo.part", true, false),
            (".hidden/.upload-7.part", true, false),
        ] {
            try fixture.write(name, [1, 2, 3])
            if stale { try fm.setAttributes([.modificationDate: old], ofItemAtPath: fixture.root + "/" + name) }
            names[name] = swept
        }
        _ = try gallery()
        try await waitUntil { !fm.fileExists(atPath: fixture.root + "/sub/.upload-123.part") }
        for (name, swept) in names {
            #expect(fm.fileExists(atPath: fixture.root + "/" + name) == !swept, "\(name)")
        }
    }

    @Test func uploadsAreSniffedCheckedSanitisedAndAtomic() async throws {
        let g = try gallery { $0.maxSourceBytes = 64 << 10 }
        let jpeg = try TestImages.jpeg(TestImages.pattern(width: 80, height: 60))
        func put(_ target: String, _ bytes: [UInt8], origin: String? = nil, length: Int? = nil) async -> ServerResponse
        {
            await g.respond(
                to: Gallery.Request(
                    method: "PUT", target: Substring(target), remote: Self.loopback,
                    origin: origin, host: "127.0.0.1:8080", contentLength: length ?? bytes.count),
                body: Self.body(
                    stride(from: 0, to: bytes.count, by: 1000).map { Array(bytes[$0..<min($0 + 1000, bytes.count)]) }))
        }
        let ok = await put("/_/upload/new%20one.PNG", jpeg, origin: "http://127.0.0.1:8080")
        #expect(ok.status == 201, "\(Self.text(ok))")
        #expect(Self.text(ok).contains("\"name\":\"new one.jpg\""), "the extension follows the content")
        #expect(FileManager.default.fileExists(atPath: fixture.root + "/new one.jpg"))
        #expect(await put("/_/upload/new%20one.jpg", jpeg).status == 201)
        #expect(
            FileManager.default.fileExists(atPath: fixture.root + "/new one-1.jpg"), "an upload never replaces a file")
        let traversal = await put("/_/upload/..%2F..%2Fescape.jpg", jpeg)
        #expect(traversal.status == 400, "an encoded / in the name makes .. segments: refused")
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/../escape.jpg"))
        #expect(await put("/_/upload/../x.jpg", jpeg).status == 400)
        #expect(await put("/_/upload/sub%2Fname.jpg", jpeg).status == 201, "an encoded / in a name is sanitised away")
        // A NEF's first bytes are a TIFF's: the whole file decides, and its name is kept.
        let nef = TestRAW.nef(preview: jpeg, small: try TestImages.jpeg(TestImages.pattern(width: 40, height: 30)))
        let raw = await put("/_/upload/camera.nef", nef)
        #expect(raw.status == 201, "\(Self.text(raw))")
        #expect(FileManager.default.fileExists(atPath: fixture.root + "/camera.nef"), "\(Self.text(raw))")
        #expect(await put("/_/upload/text.jpg", Array("just some text, not an image".utf8)).status == 415)
        #expect(await put("/_/upload/big.jpg", [UInt8](repeating: 0xFF, count: 70 << 10)).status == 413)
        #expect(await put("/_/upload/cut.jpg", Array(jpeg.prefix(40))).status == 422)
        #expect(await put("/_/upload/cross.jpg", jpeg, origin: "http://evil.example").status == 403)
        #expect(
            await put("/_/upload/short.jpg", jpeg, length: jpeg.count + 5000).status == 400,
            "a body cut short is not published")
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/short.jpg"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.root).filter {
            $0.hasPrefix(".upload-")
        }
        #expect(leftovers.isEmpty, "failed uploads leave no temporary file: \(leftovers)")
        #expect(GalleryUpload.sanitise("../a\u{0}b\u{202E}c.webp", format: .webp) == "abc.webp")
        #expect(GalleryUpload.sanitise("photo", format: .jpeg) == "photo.jpg")
        #expect(GalleryUpload.sanitise(".hidden.JPEG", format: .jpeg) == "hidden.jpeg")
        #expect(GalleryUpload.sanitise("a.png", format: .heif) == "a.heic")
        #expect(GalleryUpload.sanitise("...", format: .gif) == "upload.gif")
    }

    @Test func theInspectorShowsTheHeaderThePlanAndTheTelemetryOfItsImage() async throws {
        let g = try gallery()
        let page = Self.text(await get(g, "/_/inspect/tall.jpg"))
        #expect(page.contains("<th>displayed size</th><td>400 × 300</td>"))
        #expect(page.contains("(from EXIF)"))
        // The tile decoded again alone for the page: its prediction and the heap it really held.
        let predicted =
            Int(
                page.components(separatedBy: "<th>predicted peak bytes</th><td>").dropFirst().first?.prefix {
                    $0.isNumber
                } ?? "") ?? 0
        let measured =
            Int(
                page.components(separatedBy: "<th>measured peak bytes</th><td>").dropFirst().first?.prefix {
                    $0.isNumber
                } ?? "") ?? -1
        #expect(predicted > 0 && measured >= 0, "predicted \(predicted), measured \(measured) (a row missing reads -1)")
        #expect(page.contains("id=\"prev\"") && !page.contains("id=\"next\""), "tall.jpg is the last image")
        let url = try #require(Self.attributes("data-url", in: page).first)
        let image = await g.service.respond(to: Substring(url))
        #expect(image.status == 200)
        let etag = try #require(image.headers.first { $0.0 == "ETag" }?.1)
        let telemetry = await get(g, "/_/telemetry/" + etag.replacingOccurrences(of: "\"", with: ""))
        #expect(telemetry.status == 200)
        let json = try JSONSerialization.jsonObject(with: Data(telemetry.body)) as? [String: Any] ?? [:]
        #expect(json["origin"] as? String == "decoded")
        #expect((json["predictedPeakBytes"] as? Int ?? 0) > 0)
        #expect(json["encodedBytes"] as? Int == image.body.count)
        let stats = try JSONSerialization.jsonObject(with: Data(await get(g, "/_/stats").body)) as? [String: Any] ?? [:]
        #expect(stats["budgetBytes"] as? Int == 256 << 20)
        // Two decodes through the pipeline: the inspector's measuring one, and the image's.
        #expect(stats["decodes"] as? Int == 2)
        #expect(await get(g, "/_/telemetry/0000").status == 404)
    }

    @Test func aServerWithoutTheGalleryHasNoPages() async throws {
        let service = try fixture.service()
        let server = try ImageServer(service: service)
        #expect(server.gallery == nil)
    }
}
