import Foundation
import Shrink
import Testing

@testable import ShrinkServer
@testable import ShrinkServerURL

/// The server's environment: imgproxy's names standing in for Shrink's unset ones, Shrink's winning when both are set,
/// imgproxy's value syntaxes (presets, wildcard sources, megapixels, `:PORT`), and errors naming the variable.
@Suite struct ServerConfigurationTests {
    static let key = "736563726574", salt = "68656c6c6f"

    @Test func imgproxysNamesStandInForShrinks() throws {
        let c = try ServerConfiguration(environment: [
            "IMGPROXY_KEY": Self.key, "IMGPROXY_SALT": Self.salt, "IMGPROXY_SIGNATURE_SIZE": "8",
            "IMGPROXY_QUALITY": "70", "IMGPROXY_BIND": ":9090",
            "IMGPROXY_ALLOWED_SOURCES": "https://*.example.com/, http://127.0.0.1:9/",
            "IMGPROXY_PRESETS": "thumb=rs:fill:100:100/q:70, Default=q:60",
            "IMGPROXY_MAX_SRC_RESOLUTION": "12.5", "IMGPROXY_MAX_SRC_FILE_SIZE": "1048576",
            "IMGPROXY_MAX_ANIMATION_FRAMES": "5", "IMGPROXY_AUTO_WEBP": "true",
        ])
        #expect(c.keys.isEnabled && c.keys.signatureBytes == 8)
        #expect(c.keys.verify(Substring(c.keys.sign("/w:10/plain/local:///a.jpg")), path: "/w:10/plain/local:///a.jpg"))
        #expect(c.quality == 70 && c.host == "0.0.0.0" && c.port == 9090 && c.negotiation.webp)
        #expect(c.presets == ["thumb": "rs:fill:100:100/q:70", "default": "q:60"])
        #expect(c.limits.maxPixels == 12_500_000 && c.maxSourceBytes == 1 << 20 && c.limits.maxAnimationFrames == 5)
        #expect(
            c.imgproxyNames == [
                "IMGPROXY_ALLOWED_SOURCES", "IMGPROXY_AUTO_WEBP", "IMGPROXY_BIND", "IMGPROXY_KEY",
                "IMGPROXY_MAX_ANIMATION_FRAMES", "IMGPROXY_MAX_SRC_FILE_SIZE", "IMGPROXY_MAX_SRC_RESOLUTION",
                "IMGPROXY_PRESETS", "IMGPROXY_QUALITY", "IMGPROXY_SALT", "IMGPROXY_SIGNATURE_SIZE",
            ])
        #expect(c.summary.contains { $0.hasPrefix("imgproxy's variables read: IMGPROXY_ALLOWED_SOURCES, ") })
        #expect(!c.summary.joined().contains(Self.key) && !c.summary.joined().contains(Self.salt))
        // `*` stands for one whole host label.
        #expect(c.allows(source: "https://img.example.com/a.jpg") && c.allows(source: "http://127.0.0.1:9/x.png"))
        #expect(!c.allows(source: "https://example.com/a.jpg") && !c.allows(source: "https://a.b/c.example.com/"))
        #expect(!c.allows(source: "https://img.example.org/a.jpg") && !c.allows(source: "http://127.0.0.1:90/x"))
    }

    /// Allowlist entries are URLs (scheme, host, port, path prefix on a segment boundary), parsed at start; sources
    /// are taken apart before they are compared, so nothing a prefix match let through passes (security review,
    /// hole 1).
    @Test func allowedSourcesAreURLsNotPrefixes() throws {
        let c = try ServerConfiguration(environment: [
            "SHRINK_ALLOWED_SOURCES": "http://localhost:18090, https://*.example.com/images, http://[::1]:8081/"
        ])
        for allowed in [
            "http://localhost:18090/ok.jpg", "http://LOCALHOST:18090/ok.jpg", "http://localhost.:18090/a?b=c",
            "http://localhost:18090", "https://cdn.example.com/images", "https://cdn.example.com/images/a/b.jpg",
            "https://cdn.example.com:443/images/a.jpg", "http://[::1]:8081/a.png",
        ] {
            #expect(c.allows(source: allowed), "\(allowed) refused")
        }
        for refused in [
            "http://localhost:18090@127.0.0.2:18091/ok.jpg", "http://localhost:180901/ok.jpg",
            "http://localhost:1809/ok.jpg", "http://localhost/ok.jpg", "https://localhost:18090/ok.jpg",
            "http://localhost:18090.evil.example/ok.jpg", "http://user:pass@localhost:18090/ok.jpg",
            "http://localhost:18090\\@evil.example/", "http://local%68ost:18090/", "http://localhost:18090 /ok.jpg",
            "https://example.com/images/a.jpg", "https://a.b.example.com/images/a.jpg",
            "https://cdn.example.com/images2/a.jpg", "https://cdn.example.com/images/../secret.jpg",
            "https://cdn.example.com/images/%2E%2e/secret.jpg", "https://cdn.example.com:8443/images/a.jpg",
            "http://[::1]:8082/a.png", "ftp://localhost:18090/ok.jpg", "local:///ok.jpg",
            // An origin that decodes %2F or %5C would resolve these out of the prefix; bytes outside ASCII (a
            // combining mark after /, a prepended mark before it) would split differently here and in curl.
            "https://cdn.example.com/images/..%2fsecret.jpg", "https://cdn.example.com/images/%2E%2E%2Fsecret.jpg",
            "https://cdn.example.com/images/..%5Csecret.jpg", "https://cdn.example.com/images/%252e%252e/x.jpg",
            "https://cdn.example.com/images/\u{600}/../..#\u{301}", "https://cdn.example.com/images/\u{301}/../x.jpg",
        ] {
            #expect(!c.allows(source: refused), "\(refused) allowed")
        }
        // A scheme alone allows every host of that scheme.
        let any = try ServerConfiguration(environment: ["SHRINK_ALLOWED_SOURCES": "https://"])
        #expect(any.allows(source: "https://anything.example:444/x") && !any.allows(source: "http://anything.example/"))
        #expect(!any.allows(source: "https://a@anything.example/x"))
        // A bad entry is a start-up error naming the variable and the entry.
        for bad in [
            "http://img*.example.com/", "http://user@example.com/", "example.com", "http://example.com/a?b",
            "http://example.com:99999/", "http://example.com/*/", "http://example.com/../x",
        ] {
            #expect(throws: ConfigurationError.self) {
                try ServerConfiguration(environment: ["IMGPROXY_ALLOWED_SOURCES": bad])
            }
            do {
                _ = try ServerConfiguration(environment: ["SHRINK_ALLOWED_SOURCES": "http://ok.example/, \(bad)"])
            } catch {
                #expect(error.description.contains("SHRINK_ALLOWED_SOURCES") && error.description.contains(bad))
            }
        }
    }

    /// The connection deadlines and cap (``ConnectionGuard``): defaults, variables, and errors naming them.
    @Test func connectionDeadlinesAndCap() throws {
        let defaults = ServerConfiguration()
        #expect(defaults.headerTimeout == .seconds(10) && defaults.bodyIdleTimeout == .seconds(15))
        #expect(defaults.bodyTimeout == .seconds(60) && defaults.requestTimeout == .seconds(120))
        #expect(defaults.maxConnections == 1024 && defaults.maxHeaderBytes == 32768)
        let c = try ServerConfiguration(environment: [
            "SHRINK_HEADER_TIMEOUT": "2.5", "SHRINK_BODY_IDLE_TIMEOUT": "1", "SHRINK_BODY_TIMEOUT": "30",
            "SHRINK_REQUEST_TIMEOUT": "45", "SHRINK_MAX_CONNECTIONS": "64", "SHRINK_MAX_HEADER_BYTES": "8k",
        ])
        #expect(c.maxHeaderBytes == 8192)
        #expect(c.headerTimeout == .milliseconds(2500) && c.bodyIdleTimeout == .seconds(1))
        #expect(c.bodyTimeout == .seconds(30) && c.requestTimeout == .seconds(45) && c.maxConnections == 64)
        for (name, bad) in [
            ("SHRINK_BODY_TIMEOUT", "0"), ("SHRINK_HEADER_TIMEOUT", "soon"), ("SHRINK_MAX_CONNECTIONS", "0"),
            ("SHRINK_MAX_HEADER_BYTES", "100"), ("SHRINK_MAX_HEADER_BYTES", "1000000"),
        ] {
            do {
                _ = try ServerConfiguration(environment: [name: bad])
                Issue.record("\(name)=\(bad) accepted")
            } catch {
                #expect(error.description.contains(name))
            }
        }
    }

    @Test func imgproxysURLAndResponseVariables() throws {
        let dir = NSTemporaryDirectory() + "presets-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "# thumbnails\nsmall=rs:fit:50:50\n\nBig = w:500/q:90\n".write(
            toFile: dir + "/p", atomically: true, encoding: .utf8)
        let c = try ServerConfiguration(environment: [
            "IMGPROXY_PRESETS_PATH": dir + "/p", "IMGPROXY_ONLY_PRESETS": "true", "IMGPROXY_TTL": "600",
            "IMGPROXY_ALLOW_ORIGIN": "*", "IMGPROXY_BASE_URL": "local:///", "IMGPROXY_PATH_PREFIX": "/img",
            "IMGPROXY_TRUSTED_SIGNATURES": "abc, def", "IMGPROXY_FALLBACK_IMAGE_PATH": "/f.png",
            "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "404", "IMGPROXY_FALLBACK_IMAGE_TTL": "30",
            "IMGPROXY_FORMAT_QUALITY": "webp=70, avif=55", "IMGPROXY_BASE64_URL_INCLUDES_FILENAME": "1",
            "IMGPROXY_ALLOW_SECURITY_OPTIONS": "yes", "IMGPROXY_MAX_RESULT_DIMENSION": "2048",
            "IMGPROXY_WATERMARK_DATA": "aGVsbG8=", "IMGPROXY_WATERMARK_OPACITY": "0.5",
        ])
        #expect(c.watermarkImage == Array("hello".utf8) && c.watermarkOpacity == 0.5)
        let thumbor = try ServerConfiguration(environment: [
            "THUMBOR_SECURITY_KEY": "k", "THUMBOR_ALLOW_UNSAFE_URL": "False",
        ])
        #expect(thumbor.thumborKey == Array("k".utf8) && !thumbor.allowsThumborUnsafe)
        // imgproxy signing on: thumbor's /unsafe/ is off unless asked for.
        let signed = try ServerConfiguration(environment: ["SHRINK_KEY": Self.key, "SHRINK_SALT": Self.salt])
        #expect(!signed.allowsThumborUnsafe && ServerConfiguration().allowsThumborUnsafe)
        let asked = try ServerConfiguration(environment: [
            "SHRINK_KEY": Self.key, "SHRINK_SALT": Self.salt, "THUMBOR_ALLOW_UNSAFE_URL": "true",
        ])
        #expect(asked.allowsThumborUnsafe)
        #expect(thumbor.summary.contains("thumbor URLs: signed with a key (****), /unsafe/ refused"))
        let open = try ServerConfiguration(environment: ["SHRINK_THUMBOR_KEY": "k"])
        #expect(open.summary.contains { $0.contains("but /unsafe/ still served") })
        #expect(c.limits.maxResultSide == 2048)
        #expect(c.presets == ["small": "rs:fit:50:50", "big": "w:500/q:90"])
        #expect(c.onlyPresets && c.base64IncludesFilename && c.allowsSecurityOptions)
        #expect(c.ttl == 600 && c.allowOrigin == "*" && c.baseURL == "local:///" && c.pathPrefix == "/img")
        #expect(c.trustedSignatures == ["abc", "def"] && c.fallbackImage == "/f.png")
        #expect(c.fallbackStatus == 404 && c.fallbackTTL == 30 && c.formatQuality == ["webp": 70, "avif": 55])
        #expect(c.imgproxyNames.count == 16)
        for (name, value) in [
            ("IMGPROXY_TTL", "-1"), ("IMGPROXY_PATH_PREFIX", "img/"), ("IMGPROXY_FALLBACK_IMAGE_HTTP_CODE", "99"),
            ("IMGPROXY_FORMAT_QUALITY", "webp=101"), ("IMGPROXY_FORMAT_QUALITY", "bmp=50"),
            ("IMGPROXY_PRESETS_PATH", dir + "/missing"), ("IMGPROXY_ONLY_PRESETS", "perhaps"),
            ("IMGPROXY_WATERMARK_DATA", "%%%"), ("IMGPROXY_WATERMARK_OPACITY", "2"),
            ("IMGPROXY_WATERMARK_PATH", dir + "/missing.png"),
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") {
                try ServerConfiguration(environment: [name: value])
            }
        }
    }

    @Test func shrinksNamesWinAndDefaultsStay() throws {
        let both = try ServerConfiguration(environment: [
            "SHRINK_QUALITY": "60", "IMGPROXY_QUALITY": "70", "SHRINK_PRESET_THUMB": "w:50",
            "IMGPROXY_PRESETS": "thumb=w:9",
            "IMGPROXY_MAX_SRC_FILE_SIZE": "0",
        ])
        #expect(both.quality == 60 && both.presets["thumb"] == "w:50" && both.maxSourceBytes == 32 << 20)
        #expect(both.imgproxyNames == ["IMGPROXY_MAX_SRC_FILE_SIZE", "IMGPROXY_PRESETS"])
        let none = try ServerConfiguration(environment: [:])
        #expect(
            none.imgproxyNames.isEmpty
                && none.summary.contains("imgproxy's variables read: none (values of secrets masked)"))
    }

    @Test func badValuesNameTheirVariable() {
        for (name, value) in [
            ("IMGPROXY_QUALITY", "abc"), ("IMGPROXY_PRESETS", "thumb"), ("IMGPROXY_MAX_SRC_RESOLUTION", "-1"),
            ("IMGPROXY_MAX_ANIMATION_FRAMES", "0"), ("IMGPROXY_BIND", "nowhere"), ("IMGPROXY_AUTO_AVIF", "maybe"),
        ] {
            do {
                _ = try ServerConfiguration(environment: [name: value])
                Issue.record("\(name)=\(value) was accepted")
            } catch {
                #expect(error.description.contains(name), "\(error.description)")
            }
        }
    }
}
