import Foundation
import Shrink
import ShrinkTestSupport
import Testing

@testable import ShrinkServer
@testable import ShrinkServerURL

/// The holes a review of `shrink serve` found (signature malleability, errors that say too much and are cached,
/// responses without `nosniff`), each tested as it was found; the allowlist bypass is in ``RemoteSourceTests`` and
/// ``ServerConfigurationTests``, hidden files in `LocalSourceTests`.
@Suite struct SecurityReviewTests {
    let fixture: ServerFixture
    init() throws { fixture = try ServerFixture() }

    static func keys() throws -> SigningKeys { try SigningKeys(hexKeys: "736563726574", hexSalts: "68656c6c6f") }

    /// Hole 3: `=` appended or inserted, the last character's unused bits, or the standard alphabet spelled one valid
    /// signature many ways. Only the signer's own spelling verifies.
    @Test func aSignatureHasOneSpelling() async throws {
        let keys = try Self.keys()
        let service = try fixture.service { $0.keys = keys }
        // A path whose signature has a `-` or `_` (so the standard alphabet's `+` or `/` is another spelling).
        var path = "", signature = ""
        for width in 10..<200 {
            path = "/w:\(width)/plain/local:///a.jpg"
            signature = keys.sign(path)
            if signature.contains("-") || signature.contains("_") { break }
        }
        #expect(signature.count == 43)
        #expect(await service.respond(to: Substring("/" + signature + path)).status == 200)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(alphabet.firstIndex(of: signature.last!))
        var spellings = [
            signature + "=", signature + "==", String(signature.prefix(20)) + "=" + signature.dropFirst(20),
            "=" + signature,
            signature.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"),
        ]
        // 32 bytes are 256 bits: the 43rd character carries 2 of them and 4 unused bits.
        for unused in 1..<16 { spellings.append(String(signature.dropLast()) + String(alphabet[last ^ unused])) }
        for spelling in spellings {
            #expect(SigningKeys.decodeBase64url(Substring(spelling)) != nil || spelling.contains("/"), "\(spelling)")
            let r = await service.respond(to: Substring("/" + spelling + path))
            #expect(r.status == 403, "\(spelling): \(r.status)")
        }
    }

    /// With a key set, the signature is checked before the URL is parsed: an unsigned request gets the same 403
    /// whatever its options, and learns nothing of the parser; a signed one hears what is wrong.
    @Test func parseErrorsComeAfterTheSignature() async throws {
        let keys = try Self.keys()
        let service = try fixture.service { $0.keys = keys }
        for bad in ["/nope:1/plain/local:///a.jpg", "/w:abc/plain/local:///a.jpg", "/w:10/plain/local:///a.jpg@bmp"] {
            let unsigned = await service.respond(to: Substring("/insecure" + bad))
            #expect(unsigned.status == 403 && unsigned.body == Array("invalid signature\n".utf8), "\(bad)")
            let signed = await service.respond(to: Substring("/" + keys.sign(bad) + bad))
            #expect([404, 415].contains(signed.status), "\(bad): \(signed.status)")
        }
        #expect(await service.respond(to: "/nothing-after-the-signature").status == 403)
        // thumbor's /unsafe/ is not a way around imgproxy signing (it is off unless asked for when a key is set).
        #expect(await service.respond(to: "/unsafe/80x60/local:///a.jpg").status == 403)
        #expect(await service.respond(to: "/unsafe/80x60/filters:bogus()/local:///a.jpg").status == 403)
        // Signing off, the parser answers as before.
        let open = try fixture.service()
        #expect(await open.respond(to: "/insecure/nope:1/plain/local:///a.jpg").status == 404)
    }

    /// Hole 4: refusals quoted the resolver ("resolves to 127.0.0.1", "cannot resolve"), and every status below 500
    /// was `public, max-age=60`, so a CDN kept a damaged source's 422, an origin's 404 or a refusal. Errors say their
    /// status in a few words; only the URL's own errors may be cached.
    @Test func errorsSayLittleAndAreNotCachedUnlessTheURLIsWrong() async throws {
        let missing = try RawOrigin { _, fd in
            RawOrigin.reply(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        }
        let failing = try RawOrigin { _, fd in
            RawOrigin.reply(
                fd, "HTTP/1.1 500 Backend db01 down\r\nContent-Length: 6\r\n\r\n", body: Array("secret".utf8))
        }
        try fixture.write("junk.jpg", Array("not an image at all".utf8))
        let http = try SourcePattern("http://")
        let service = try fixture.service { c in
            c.allowedSources = [http]
            c.allowedPrivateHosts = ["127.0.0.1:\(missing.port)", "127.0.0.1:\(failing.port)"]
            c.downloadTimeout = .seconds(2)
        }
        let cases: [(String, Int)] = [
            ("http://127.0.0.2:\(missing.port)/a.jpg", 403), // loopback, not allowed: the resolver's answer
            ("http://localhost:\(missing.port)/a.jpg", 403),
            ("http://127.0.0.1:\(missing.port)/a.jpg", 404), // the origin's 404
            ("http://127.0.0.1:\(failing.port)/a.jpg", 502), // the origin's 500 and what it said
            ("local:///junk.jpg", 415), ("local:///missing.jpg", 404), ("local:///.hidden.jpg", 403),
        ]
        for (source, status) in cases {
            let r = await service.respond(to: Substring("/insecure/w:50/plain/" + SignedPath.escape(source)))
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(r.status == status, "\(source): \(r.status) \(text)")
            #expect(r.header("Cache-Control") == "no-store", "\(source): \(r.header("Cache-Control") ?? "none")")
            for leak in ["resolve", "127.0.0", "::1", "localhost", String(missing.port), "db01", "secret", "500"] {
                #expect(!text.contains(leak), "\(source): \(text)")
            }
        }
        // The URL's own errors are what they are whatever happens elsewhere: a cache may keep them a minute.
        for (target, status) in [
            ("/insecure/nope:1/plain/local:///a.jpg", 404), ("/insecure/w:10/plain/local:///a.jpg@bmp", 415),
        ] {
            let r = await service.respond(to: Substring(target))
            #expect(r.status == status && r.header("Cache-Control") == "public, max-age=60", "\(target)")
        }
    }

    /// Hole 7 (part): with signing off, an upscale was bounded only by the budget. A result's longest side is 8192
    /// pixels by default (`SHRINK_MAX_RESULT_DIMENSION`, 0 for none), refused from the plan before any decode.
    @Test func resultsAreBoundedWhateverTheBudget() async throws {
        let service = try fixture.service()
        #expect(service.configuration.limits.maxResultSide == ServerConfiguration.defaultMaxResultSide)
        let r = await service.respond(to: "/insecure/rs:fit:16000:16000:1/plain/local:///a.jpg")
        #expect(r.status == 413 && fixture.decodeCount == 0, "\(r.status) \(String(decoding: r.body, as: UTF8.self))")
        #expect(await service.respond(to: "/insecure/rs:fit:800:800:1/plain/local:///a.jpg").status == 200)
        let unbounded = try ServerConfiguration(environment: ["SHRINK_MAX_RESULT_DIMENSION": "0"])
        #expect(unbounded.limits.maxResultSide == Int.max)
    }

    /// Hole 7 (part): no `X-Content-Type-Options` on image responses. Every response carries `nosniff`.
    @Test func everyResponseSaysNosniff() async throws {
        let service = try LiveServerTests.configured(fixture)
        try await LiveServerTests.withServer(service) { port in
            for target in [
                "/insecure/w:20/plain/local:///a.jpg", "/insecure/nope:1/plain/local:///a.jpg", "/health",
                "/_/browse/", "/metrics", "/favicon.ico",
            ] {
                let r = try await RawHTTP.get(port: port, target)
                #expect(r.headers["x-content-type-options"] == "nosniff", "\(target): \(r.status) \(r.headers)")
            }
        }
    }
}
