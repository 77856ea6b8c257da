import Foundation
import Shrink
import ShrinkTestSupport
import Testing
@testable import ShrinkServer
@testable import ShrinkServerURL

@Suite struct ImageServiceTests {
    let fixture: ServerFixture
    init() throws { fixture = try ServerFixture() }

    @Test func servesAThumbnailWithItsHeaders() async throws {
        let service = try fixture.service()
        let r = await service.respond(to: "/insecure/rs:fit:100:100/plain/local:///a.jpg")
        #expect(r.status == 200)
        #expect(r.header("Content-Type") == "image/jpeg")
        #expect(try imageSize(r.body) == PixelSize(width: 100, height: 75))
        #expect(r.header("ETag")?.hasPrefix("\"") == true)
        #expect(r.header("Cache-Control") == "public, max-age=3600")
        #expect(r.header("Vary") == nil)
        #expect(r.header("Server-Timing")?.contains("decode;dur=") == true)
        #expect(fixture.decodeCount == 1)
    }

    @Test func gravityRotationAndFormats() async throws {
        let service = try fixture.service()
        let cover = await service.respond(to: "/insecure/rs:fill:50:50/g:we/plain/local:///a.jpg@png")
        #expect(cover.status == 200 && cover.header("Content-Type") == "image/png")
        #expect(try imageSize(cover.body) == PixelSize(width: 50, height: 50))
        let rotated = await service.respond(to: "/insecure/w:40/rot:90/plain/local:///a.jpg@webp")
        #expect(rotated.status == 200 && rotated.header("Content-Type") == "image/webp")
        #expect(try imageSize(rotated.body) == PixelSize(width: 40, height: 53))
        // EXIF orientation 6 on a 300x400 stored image displays 400x300; rot:90 turns it to 300x400.
        let oriented = await service.respond(to: "/insecure/rot:90/plain/local:///tall.jpg")
        #expect(try imageSize(oriented.body) == PixelSize(width: 300, height: 400))
        let cropped = await service.respond(to: "/insecure/c:200:100:nowe/plain/local:///a.jpg")
        #expect(try imageSize(cropped.body) == PixelSize(width: 200, height: 100))
    }

    /// imgproxy's geometry and output-size finishing on a 400×300 source: sizes as imgproxy computes them, grown
    /// canvases transparent (PNG) or the `bg` colour (JPEG).
    @Test func geometryAndFinishingAsImgproxyAnswersThem() async throws {
        let service = try fixture.service()
        func size(_ options: String, _ ext: String = "") async throws -> PixelSize {
            let r = await service.respond(to: "/insecure/\(options)/plain/local:///a.jpg\(ext)")
            #expect(r.status == 200, "\(options): \(String(decoding: r.body, as: UTF8.self))")
            return try imageSize(r.body)
        }
        let cases: [(String, PixelSize)] = [
            ("rs:force:100:40", PixelSize(width: 100, height: 40)),
            ("rs:force:800:30", PixelSize(width: 400, height: 15)),
            ("rs:fill:500:100", PixelSize(width: 400, height: 100)),
            ("rs:fill-down:500:100", PixelSize(width: 400, height: 80)),
            ("rs:fit:100:100:0:1", PixelSize(width: 100, height: 100)),
            ("rs:fit:100:100/exar:1", PixelSize(width: 100, height: 100)),
            ("w:100/pd:10:20", PixelSize(width: 140, height: 95)),
            ("w:100/pd:5/dpr:2", PixelSize(width: 220, height: 170)),
            ("w:100/mw:200", PixelSize(width: 200, height: 150)),
            ("w:100/bl:2/sh:1/pix:5", PixelSize(width: 100, height: 75)),
            ("rs:fill:100:100/g:ea:10:0", PixelSize(width: 100, height: 100)),
            ("rs:fill:100:100/g:sm", PixelSize(width: 100, height: 100)),
            ("rs:fill:120:60/g:sm/pd:5", PixelSize(width: 130, height: 70)),
        ]
        for (options, expected) in cases {
            #expect(try await size(options) == expected, "\(options)")
        }
        let clear = await service.respond(to: "/insecure/rs:fit:100:100:0:1:no/plain/local:///a.jpg@png")
        let png = try ImageSource(bytes: clear.body, name: "x.png").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgba8))
        ).pixels
        #expect(png.pixel(x: 50, y: 99)[(99 * 100 + 50) * 4 + 3] == 0 && png.pixel(x: 50, y: 0).last == 255)
        let red = await service.respond(to: "/insecure/rs:fit:100:100/ex:1:no/bg:ff0000/plain/local:///a.jpg")
        let jpeg = try ImageSource(bytes: red.body, name: "x.jpg").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        ).pixels
        let bottom = Array(jpeg.pixel(x: 50, y: 98))
        #expect(red.header("Content-Type") == "image/jpeg" && bottom[0] > 230 && bottom[1] < 25 && bottom[2] < 25)
    }

    /// `raw` and `skp` answer the source's bytes as they are (a 304 for their own ETag); `ar:0` shows the stored
    /// pixels; `sm:0` keeps EXIF; `fq` sets a format's quality under `q`, over the server's.
    @Test func rawSkipAutoRotateMetadataAndFormatQuality() async throws {
        let service = try fixture.service { $0.formatQuality = ["webp": 90] }
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.root + "/a.jpg")))
        let raw = await service.respond(to: "/insecure/raw:1/w:10/plain/local:///a.jpg")
        #expect(raw.status == 200 && raw.body == file && raw.header("Content-Type") == "image/jpeg")
        #expect(raw.header("X-Shrink-Origin") == "source" && fixture.decodeCount == 0)
        let again = await service.respond(
            to: "/insecure/raw:1/w:10/plain/local:///a.jpg", ifNoneMatch: raw.header("ETag"))
        #expect(again.status == 304)
        let skipped = await service.respond(to: "/insecure/skp:png:jpg/w:10/plain/local:///a.jpg")
        #expect(skipped.status == 200 && skipped.body == file)
        let processed = await service.respond(to: "/insecure/skp:png/w:10/plain/local:///a.jpg")
        let processedSize = try imageSize(processed.body)
        #expect(processed.status == 200 && processedSize == PixelSize(width: 10, height: 8))
        try fixture.write("notes.jpg", Array("not an image".utf8))
        #expect(await service.respond(to: "/insecure/raw:1/plain/local:///notes.jpg").status == 415)
        // tall.jpg is stored 300×400 with orientation 6 (displayed 400×300).
        let stored = await service.respond(to: "/insecure/ar:0/plain/local:///tall.jpg@png")
        #expect(try imageSize(stored.body) == PixelSize(width: 300, height: 400))
        let turned = await service.respond(to: "/insecure/ar:0/rot:90/plain/local:///tall.jpg@png")
        #expect(try imageSize(turned.body) == PixelSize(width: 400, height: 300))
        func hasEXIF(_ body: [UInt8]) -> Bool {
            let marker: [UInt8] = [0xFF, 0xE1], tag = Array("Exif".utf8)
            return (0..<min(body.count, 4096) - 10).contains { i in
                body[i..<i + 2].elementsEqual(marker) && body[i + 4..<i + 8].elementsEqual(tag)
            }
        }
        let kept = await service.respond(to: "/insecure/sm:0/w:50/plain/local:///tall.jpg")
        let stripped = await service.respond(to: "/insecure/w:50/plain/local:///tall.jpg")
        #expect(hasEXIF(kept.body) && !hasEXIF(stripped.body))
        func bytes(_ options: String) async -> Int {
            await service.respond(to: "/insecure/\(options)/w:200/plain/local:///b.jpg@webp").body.count
        }
        let server = await bytes("cb:1"), low = await bytes("fq:webp:20:jpg:95"), q = await bytes("fq:webp:20/q:90")
        #expect(low < server && q == server, "fq:webp:20 \(low), server's 90 \(server), q:90 \(q)")
        // mb: the highest quality that fits, by a bounded search; the smallest tried when nothing fits.
        let half = await bytes("mb:\(server / 2)"), none = await bytes("mb:1"), floor = await bytes("q:1")
        #expect(half <= server / 2 && half > floor, "mb:\(server / 2) gave \(half) (q:1 gives \(floor))")
        #expect(none == floor, "mb:1 gave \(none), q:1 gives \(floor)")
        let png = await service.respond(to: "/insecure/mb:100/w:200/plain/local:///b.jpg@png")
        #expect(png.status == 200 && png.body.count > 100)
    }

    /// imgproxy's deployment variables: a path prefix, CORS, a TTL, trusted signatures, a base URL, presets only,
    /// Base64 sources with a filename, security options only when allowed, presets naming presets, and a fallback
    /// image for sources that cannot be had.
    @Test func imgproxysDeploymentVariables() async throws {
        let prefixed = try fixture.service {
            $0.pathPrefix = "/img"
            $0.allowOrigin = "*"
            $0.ttl = 120
        }
        let ok = await prefixed.respond(to: "/img/insecure/w:10/plain/local:///a.jpg")
        #expect(ok.status == 200 && ok.header("Access-Control-Allow-Origin") == "*")
        #expect(ok.header("Cache-Control") == "public, max-age=120")
        #expect(await prefixed.respond(to: "/insecure/w:10/plain/local:///a.jpg").status == 404)
        #expect(await prefixed.respond(to: "/imgx/insecure/w:10/plain/local:///a.jpg").status == 404)
        let signed = try fixture.service {
            $0.keys = try! SigningKeys(hexKeys: "6b6579", hexSalts: "73616c74")
            $0.trustedSignatures = ["trusted-one"]
            $0.baseURL = "local:///"
        }
        #expect(await signed.respond(to: "/trusted-one/w:10/plain/a.jpg").status == 200)
        #expect(await signed.respond(to: "/insecure/w:10/plain/a.jpg").status == 403)
        let presets = try fixture.service {
            $0.presets = ["small": "w:20", "thumb": "pr:small/q:50", "loop": "pr:loop"]
            $0.onlyPresets = true
            $0.base64IncludesFilename = true
        }
        let encoded = SigningKeys.base64url(Array("local:///a.jpg".utf8))
        let onlyPresets = await presets.respond(to: Substring("/insecure/thumb/\(encoded)/holiday.png"))
        #expect(onlyPresets.status == 200 && onlyPresets.header("Content-Type") == "image/png")
        #expect(try imageSize(onlyPresets.body) == PixelSize(width: 20, height: 15))
        #expect(await presets.respond(to: "/insecure/w:20/plain/local:///a.jpg").status == 404)
        #expect(await presets.respond(to: Substring("/insecure/loop/\(encoded)/a.jpg")).status == 404)
        let refused = try await fixture.service().respond(to: "/insecure/msr:0.001/plain/local:///a.jpg")
        #expect(refused.status == 404)
        let allowed = try fixture.service { $0.allowsSecurityOptions = true }
        #expect(await allowed.respond(to: "/insecure/msr:0.001/plain/local:///a.jpg").status == 413)
        #expect(await allowed.respond(to: "/insecure/msr:1/w:10/plain/local:///a.jpg").status == 200)
        #expect(await allowed.respond(to: "/insecure/mrd:50/w:100/plain/local:///a.jpg").status == 413)
        let bounded = try fixture.service { $0.limits.maxResultSide = 50 }
        #expect(await bounded.respond(to: "/insecure/w:100/plain/local:///a.jpg").status == 413)
        #expect(await bounded.respond(to: "/insecure/w:50/plain/local:///a.jpg").status == 200)
        try fixture.write("fallback.jpg", try TestImages.jpeg(TestImages.pattern(width: 64, height: 64)))
        let fallback = try fixture.service {
            $0.fallbackImage = fixture.root + "/fallback.jpg"
            $0.fallbackStatus = 404
        }
        let missing = await fallback.respond(to: "/insecure/w:32/plain/local:///missing.jpg")
        #expect(missing.status == 404 && missing.header("Fallback-Image") == "1")
        let fallbackSize = try imageSize(missing.body)
        #expect(missing.header("Cache-Control") == "public, max-age=60" && fallbackSize.width == 32)
        #expect(
            await fallback.respond(to: "/insecure/bogus:1/plain/local:///missing.jpg").header("Fallback-Image") == nil)
    }

    /// `wm` lays the configured watermark over the result at its position and opacity; without one configured, `wm`
    /// changes nothing (as imgproxy's).
    @Test func watermarksFromTheConfiguration() async throws {
        let red = PixelBuffer(
            format: .rgba8, size: PixelSize(width: 20, height: 10),
            bytes: Array(repeating: [255, 0, 0, 255], count: 200).flatMap { $0 })
        let marked = try fixture.service { $0.watermarkImage = try! PNGEncoder().encode(red) }
        func pixels(_ r: ServerResponse) throws -> PixelBuffer {
            try ImageSource(bytes: r.body, name: "r.png").image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
                .pixels
        }
        let corner = try pixels(await marked.respond(to: "/insecure/w:100/wm:1:soea/plain/local:///a.jpg@png"))
        let plain = try pixels(await marked.respond(to: "/insecure/w:100/plain/local:///a.jpg@png"))
        #expect(corner.size == PixelSize(width: 100, height: 75))
        #expect(
            Array(corner.pixel(x: 95, y: 72)) == [255, 0, 0] && corner.pixel(x: 10, y: 10) == plain.pixel(x: 10, y: 10))
        let offset = try pixels(await marked.respond(to: "/insecure/w:100/wm:1:nowe:5:5/plain/local:///a.jpg@png"))
        #expect(Array(offset.pixel(x: 6, y: 6)) == [255, 0, 0] && offset.pixel(x: 2, y: 2) == plain.pixel(x: 2, y: 2))
        let unconfigured = try fixture.service()
        let ignored = await unconfigured.respond(to: "/insecure/w:100/wm:1:soea/plain/local:///a.jpg@png")
        #expect(try pixels(ignored).bytes == plain.bytes)
        #expect(await marked.respond(to: "/insecure/w:100/wm:2/plain/local:///a.jpg").status == 404)
    }

    /// imgproxy's defaults: metadata stripped, but the EXIF copyright and artist kept (`kcr`, on by default); `kcr:0`
    /// keeps nothing, `sm:0` everything.
    @Test func copyrightIsKeptAloneUnlessAskedOtherwise() async throws {
        // Big-endian TIFF: IFD0 with Make, Artist and Copyright, values after it.
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }
        let make = ascii("CameraMaker"), artist = ascii("Ann Example"), copyright = ascii("(c) Ann Example 2026")
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
        var at = 8 + 2 + 3 * 12 + 4
        var tiff: [UInt8] = [0x4D, 0x4D] + be16(42) + be32(8) + be16(3), values: [UInt8] = []
        for (tag, value) in [(0x010F, make), (0x013B, artist), (0x8298, copyright)] {
            tiff += be16(tag) + be16(2) + be32(value.count) + be32(at)
            values += value
            at += value.count
        }
        tiff += be32(0) + values
        let exif: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let jpeg = try TestImages.jpeg(TestImages.pattern(width: 64, height: 48))
        try fixture.write(
            "owned.jpg", Array(jpeg[0..<2]) + [0xFF, 0xE1] + be16(exif.count + 2) + exif + Array(jpeg[2...]))
        let service = try fixture.service()
        func has(_ body: [UInt8], _ text: [UInt8]) -> Bool {
            body.count >= text.count
                && (0...(body.count - text.count)).contains { body[$0..<$0 + text.count].elementsEqual(text) }
        }
        let kept = await service.respond(to: "/insecure/w:32/plain/local:///owned.jpg").body
        #expect(has(kept, copyright) && has(kept, artist) && !has(kept, make))
        let webp = await service.respond(to: "/insecure/w:32/plain/local:///owned.jpg@webp").body
        #expect(has(webp, copyright) && !has(webp, make))
        let none = await service.respond(to: "/insecure/w:32/kcr:0/plain/local:///owned.jpg").body
        #expect(!has(none, copyright) && !has(none, make))
        let all = await service.respond(to: "/insecure/w:32/sm:0/plain/local:///owned.jpg").body
        #expect(has(all, copyright) && has(all, make))
        let off = try fixture.service { $0.keepCopyright = false }
        #expect(!has(await off.respond(to: "/insecure/w:32/plain/local:///owned.jpg").body, copyright))
    }

    /// imgproxy's `t` and thumbor's `trim/` cut the background before the size applies.
    @Test func trimCutsTheBackground() async throws {
        var bytes = [UInt8](repeating: 255, count: 300 * 200 * 3)
        for y in 50..<110 { for x in 80..<180 { bytes[(y * 300 + x) * 3] = 20 } }
        let png = try PNGEncoder().encode(
            PixelBuffer(format: .rgb8, size: PixelSize(width: 300, height: 200), bytes: bytes))
        try fixture.write("bordered.png", png)
        let service = try fixture.service()
        for url in [
            "/insecure/t:10/plain/local:///bordered.png", "/unsafe/trim/bordered.png",
            "/unsafe/trim:bottom-right:5/bordered.png",
        ] {
            let r = await service.respond(to: Substring(url))
            let size = try imageSize(r.body)
            #expect(r.status == 200 && size == PixelSize(width: 100, height: 60), "\(url)")
        }
        let sized = await service.respond(to: "/insecure/t:10:ffffff:1/w:70/plain/local:///bordered.png")
        #expect(try imageSize(sized.body) == PixelSize(width: 70, height: 30)) // 140×60 equal cuts, then w:70
    }

    @Test func notModifiedIsAnsweredBeforeAnyWork() async throws {
        let first = await (try fixture.service()).respond(to: "/insecure/w:64/plain/local:///b.jpg")
        let etag = try #require(first.header("ETag"))
        #expect(fixture.decodeCount == 1)
        // A new service (empty caches): the 304 comes from the ETag alone — no load, no decode.
        let service = try fixture.service()
        let r = await service.respond(to: "/insecure/w:64/plain/local:///b.jpg", ifNoneMatch: "W/\"other\", " + etag)
        #expect(r.status == 304 && r.body.isEmpty && r.header("ETag") == etag)
        #expect(fixture.decodeCount == 1)
        #expect(service.pipeline.ledger.decodesStarted == 0)
        let changed = await service.respond(to: "/insecure/w:64/q:50/plain/local:///b.jpg", ifNoneMatch: etag)
        #expect(changed.status == 200 && changed.header("ETag") != etag)
        #expect(fixture.decodeCount == 2)
    }

    @Test func etagsFollowTheSourceFile() async throws {
        let service = try fixture.service()
        let a = await service.respond(to: "/insecure/w:32/plain/local:///a.jpg")
        let again = await service.respond(to: "/insecure/w:32/plain/local:///a.jpg")
        #expect(a.header("ETag") == again.header("ETag"))
        try fixture.write("a.jpg", try TestImages.jpeg(TestImages.pattern(width: 400, height: 300), quality: 70))
        let edited = await service.respond(to: "/insecure/w:32/plain/local:///a.jpg")
        #expect(edited.header("ETag") != a.header("ETag"))
    }

    @Test func oneHundredIdenticalRequestsDecodeOnce() async throws {
        let service = try fixture.service()
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { await service.respond(to: "/insecure/rs:fill:120:90/plain/local:///b.jpg").status }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 100 && statuses.allSatisfy { $0 == 200 })
        #expect(fixture.decodeCount == 1)
        #expect(service.pipeline.ledger.encodes == 1)
    }

    @Test func fullQueueAnswers503WithRetryAfter() async throws {
        let gate = DispatchSemaphore(value: 0)
        fixture.hold.withLock { $0 = gate }
        let service = try fixture.service {
            $0.concurrency = 1; $0.queueLimit = 1; $0.retryAfter = 3
        }
        async let first = service.respond(to: "/insecure/w:50/plain/local:///a.jpg")
        try await waitUntil { fixture.decodeCount == 1 }
        async let second = service.respond(to: "/insecure/w:51/plain/local:///a.jpg")
        try await waitUntil { service.pipeline.ledger.queuedDecodes == 1 }
        let third = await service.respond(to: "/insecure/w:52/plain/local:///a.jpg")
        #expect(third.status == 503 && third.header("Retry-After") == "3")
        #expect(!service.isReady)
        gate.signal()
        #expect(await first.status == 200)
        #expect(await second.status == 200)
        #expect(service.isReady)
    }

    @Test func aRequestWaitingTooLongGets503AndLeavesTheQueue() async throws {
        let gate = DispatchSemaphore(value: 0)
        fixture.hold.withLock { $0 = gate }
        let service = try fixture.service {
            $0.concurrency = 1; $0.maxQueueWait = .milliseconds(300)
        }
        async let first = service.respond(to: "/insecure/w:50/plain/local:///a.jpg")
        try await waitUntil { fixture.decodeCount == 1 }
        let waited = await service.respond(to: "/insecure/w:51/plain/local:///a.jpg")
        #expect(waited.status == 503 && waited.header("Retry-After") != nil)
        #expect(service.pipeline.ledger.queuedDecodes == 0)
        gate.signal()
        #expect(await first.status == 200)
    }

    @Test func diskCacheHitsAreServedWithoutDecoding() async throws {
        let cache = fixture.root + "-cache"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let url: Substring = "/insecure/rs:fit:80:80/plain/local:///b.jpg@webp"
        let first = await (try fixture.service { $0.cacheDirectory = cache }).respond(to: url)
        #expect(first.header("X-Shrink-Origin") == "decoded")
        let service = try fixture.service { $0.cacheDirectory = cache }
        let second = await service.respond(to: url)
        #expect(second.status == 200 && second.header("X-Shrink-Origin") == "diskCache")
        #expect(second.body == first.body && second.header("ETag") == first.header("ETag"))
        #expect(fixture.decodeCount == 1)
    }

    @Test func signedServers() async throws {
        let keys = try SigningKeys(hexKeys: "736563726574", hexSalts: "68656c6c6f")
        let service = try fixture.service { $0.keys = keys }
        let path = "/rs:fit:50:50/plain/local:///a.jpg"
        let signed = await service.respond(to: Substring("/" + keys.sign(path) + path))
        #expect(signed.status == 200)
        #expect(signed.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(await service.respond(to: Substring("/insecure" + path)).status == 403)
        #expect(
            await service.respond(
                to: Substring("/" + keys.sign(path) + path.replacingOccurrences(of: "50", with: "51"))
            ).status == 403)
    }

    @Test func negotiatedWebPVariesOnAccept() async throws {
        let service = try fixture.service { $0.negotiation.webp = true }
        let webp = await service.respond(to: "/insecure/w:30/plain/local:///a.jpg", accept: "image/avif,image/webp,*/*")
        #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary") == "Accept")
        let jpeg = await service.respond(to: "/insecure/w:30/plain/local:///a.jpg", accept: "image/*")
        #expect(jpeg.header("Content-Type") == "image/jpeg" && jpeg.header("Vary") == "Accept")
        #expect(jpeg.header("ETag") != webp.header("ETag"))
        let named = await service.respond(to: "/insecure/w:30/plain/local:///a.jpg@png", accept: "image/webp")
        #expect(named.header("Content-Type") == "image/png" && named.header("Vary") == nil)
    }

    /// AVIF and WebP offered: each Accept gets its own format and ETag, and a validator of one format never
    /// answers a request negotiated to another with 304.
    @Test func negotiatedAVIFWebPAndJPEGKeepTheirOwnValidators() async throws {
        let service = try fixture.service { $0.negotiation = FormatNegotiation(avif: true, webp: true) }
        let path: Substring = "/insecure/w:40/plain/local:///a.jpg"
        let accepts = [
            ("image/avif,image/webp,*/*", "image/avif"), ("image/webp,*/*", "image/webp"), ("*/*", "image/jpeg"),
            ("image/avif;q=0.5,image/webp;q=0.9", "image/webp"), ("image/avif;q=0,image/webp,*/*", "image/webp"),
        ]
        var etags: [String: String] = [:]
        for (accept, type) in accepts {
            let response = await service.respond(to: path, accept: accept)
            #expect(response.status == 200, "\(accept)")
            #expect(response.header("Content-Type") == type, "\(accept)")
            #expect(response.header("Vary") == "Accept", "\(accept)")
            let sniffed = response.body.withUnsafeBytes { ImageFormat(sniffing: $0) }
            #expect(sniffed?.mimeType == type, "\(accept): the body is \(String(describing: sniffed?.name))")
            if let previous = etags[type] { #expect(previous == response.header("ETag")) }
            etags[type] = response.header("ETag")
        }
        #expect(Set(etags.values).count == 3, "\(etags)")
        for (accept, type) in accepts {
            for (otherType, etag) in etags {
                let response = await service.respond(to: path, accept: accept, ifNoneMatch: etag)
                #expect(response.status == (otherType == type ? 304 : 200), "\(accept) with \(otherType)'s ETag")
            }
        }
    }

    /// An animated GIF stays animated when the output keeps animations: WebP, named or negotiated, and GIF, its own
    /// family when nothing is negotiated; JPEG and PNG take the first frame.
    @Test func animatedSourcesStayAnimated() async throws {
        let frames = (0..<3).map { k in
            TestGIF.Frame(
                width: 40, height: 30, indices: (0..<1200).map { UInt8(($0 % 40 + k * 5) % 16) }, delay: 5 + k)
        }
        try fixture.write(
            "anim.gif", TestGIF.file(width: 40, height: 30, palette: TestGIF.palette16, frames: frames, loopCount: 0))
        let service = try fixture.service { $0.negotiation = FormatNegotiation(webp: true) }
        let path: Substring = "/insecure/w:20/plain/local:///anim.gif"
        let webp = await service.respond(to: path, accept: "image/webp,*/*")
        #expect(webp.status == 200 && webp.header("Content-Type") == "image/webp")
        let animated = try ImageSource(bytes: webp.body, name: "a.webp")
        #expect(animated.info.frameCount == 3 && animated.info.size == PixelSize(width: 20, height: 15))
        #expect(animated.decoder.frameDurations(limit: 10) == [50, 60, 70])
        let gif = await service.respond(to: path, accept: "*/*")
        #expect(gif.status == 200 && gif.header("Content-Type") == "image/gif" && gif.header("Vary") == "Accept")
        let animatedGIF = try ImageSource(bytes: gif.body, name: "a.gif")
        #expect(animatedGIF.info.frameCount == 3 && animatedGIF.info.size == PixelSize(width: 20, height: 15))
        #expect(animatedGIF.decoder.frameDurations(limit: 10) == [50, 60, 70] && animatedGIF.info.loopCount == 0)
        let png = await service.respond(to: "/insecure/w:20/plain/local:///anim.gif@png", accept: "*/*")
        #expect(png.header("Content-Type") == "image/png")
        #expect(try ImageSource(bytes: png.body, name: "a.png").info.frameCount == 1)
        let jpeg = await service.respond(to: "/insecure/w:20/plain/local:///anim.gif@jpg", accept: "image/webp")
        #expect(jpeg.header("Content-Type") == "image/jpeg")
        // Named, not negotiated: the same animation, and no Vary.
        let named = await service.respond(to: "/insecure/w:20/plain/local:///anim.gif@webp")
        #expect(named.header("Vary") == nil && named.body == webp.body)
    }

    @Test func errorsAreStatusesWithMessages() async throws {
        let service = try fixture.service()
        let missing = await service.respond(to: "/insecure/w:10/plain/local:///nope.jpg")
        // The body names the path the client asked for, never where the server keeps its files.
        let body = String(decoding: missing.body, as: UTF8.self)
        #expect(missing.status == 404 && body.contains("no such file") && !body.contains(fixture.root), "\(body)")
        // An error of the image itself is its reason: what was wrong, without the file's path under the root.
        try fixture.write("notes.jpg", Array("not an image".utf8))
        let notImage = await service.respond(to: "/insecure/w:10/plain/local:///notes.jpg")
        let reason = String(decoding: notImage.body, as: UTF8.self)
        #expect(
            notImage.status == 415 && reason.contains("not a supported image format") && !reason.contains(fixture.root),
            "\(reason)")
        #expect(await service.respond(to: "/insecure/w:10/plain/file:///etc/passwd").status == 404)
        #expect(await service.respond(to: "/insecure/w:10/plain/http://127.0.0.1:1/a.jpg").status == 403)
        #expect(await service.respond(to: "/insecure/w:10/plain/local:///../etc/passwd").status == 403)
        #expect(await service.respond(to: "/insecure/frobnicate:1/plain/local:///a.jpg").status == 404)
        try fixture.write("text.jpg", Array("not an image".utf8))
        #expect(await service.respond(to: "/insecure/w:10/plain/local:///text.jpg").status == 415)
    }
}

/// Polls `condition` every 10 ms for up to 10 s.
func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<1000 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition not reached within 10 s")
}

@Suite struct NegotiationConfigurationTests {
    @Test func shrinkAndImgproxyNamesTurnNegotiationOn() throws {
        #expect(try ServerConfiguration(environment: [:]).negotiation == FormatNegotiation())
        #expect(
            try ServerConfiguration(environment: ["SHRINK_AUTO_AVIF": "1", "IMGPROXY_AUTO_WEBP": "true"]).negotiation
                == FormatNegotiation(avif: true, webp: true))
        #expect(
            try ServerConfiguration(environment: ["IMGPROXY_ENABLE_AVIF_DETECTION": "yes"]).negotiation
                == FormatNegotiation(avif: true))
        // Shrink's name wins over imgproxy's.
        #expect(
            try ServerConfiguration(environment: ["SHRINK_AUTO_WEBP": "0", "IMGPROXY_AUTO_WEBP": "1"]).negotiation
                == FormatNegotiation())
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["SHRINK_AUTO_AVIF": "maybe"]) }
    }
}
