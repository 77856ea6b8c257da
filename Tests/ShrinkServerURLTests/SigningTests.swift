import Testing
@testable import ShrinkServerURL

/// imgproxy's published signature vectors (security/signature_test.go) and the rules around them.
@Suite struct SigningTests {
    // "test-key" / "test-salt" and "test-key2" / "test-salt2", hex-encoded as SHRINK_KEY / SHRINK_SALT take them.
    let key1 = "746573742d6b6579", salt1 = "746573742d73616c74"
    let key2 = "746573742d6b657932", salt2 = "746573742d73616c7432"

    @Test func imgproxyVectorVerifies() throws {
        let keys = try SigningKeys(hexKeys: key1, hexSalts: salt1)
        #expect(keys.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", path: "asd"))
        #expect(keys.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", path: "/asd"))
        #expect(keys.sign("/asd") == "oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20")
        #expect(!keys.verify("pWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", path: "/asd"))
        #expect(!keys.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3b20", path: "/asd"))
        #expect(!keys.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", path: "/asd2"))
    }

    @Test func truncatedSignatures() throws {
        let keys = try SigningKeys(hexKeys: key1, hexSalts: salt1, signatureBytes: 8)
        #expect(keys.verify("oWaL7QoW5Ts", path: "/asd"))
        #expect(keys.sign("/asd") == "oWaL7QoW5Ts")
        // A full signature is not accepted where 8 bytes are configured, nor a truncated one where 32 are.
        #expect(!keys.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", path: "/asd"))
        #expect(!(try SigningKeys(hexKeys: key1, hexSalts: salt1)).verify("oWaL7QoW5Ts", path: "/asd"))
    }

    @Test func rotationAcceptsEveryPair() throws {
        let keys = try SigningKeys(hexKeys: "\(key1),\(key2)", hexSalts: "\(salt1),\(salt2)")
        #expect(keys.verify("jYz1UZ7j1BCdSzH3pZhaYf0iuz0vusoOTdqJsUT6WXI", path: "/asd"))
        #expect(keys.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", path: "/asd"))
        #expect(!keys.verify("dtLwhdnPPis", path: "/asd"))
    }

    /// Signing off, any signature passes, as imgproxy: the placeholders clients send and real ones alike. With a key,
    /// the placeholders are wrong signatures.
    @Test func anySignatureWithoutKeysNoneOfThePlaceholdersWithOne() throws {
        for placeholder in ["insecure", "unsafe", "_", "oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20"] {
            #expect(SigningKeys.none.verify(Substring(placeholder), path: "/rs:fit:10:10/plain/local:///a.jpg"))
        }
        let keys = try SigningKeys(hexKeys: key1, hexSalts: salt1)
        for placeholder in ["insecure", "unsafe", "_"] { #expect(!keys.verify(Substring(placeholder), path: "/asd")) }
        #expect(!keys.verify("", path: "/asd"))
        #expect(!keys.verify("!!notbase64!!", path: "/asd"))
    }

    @Test func badConfigurationIsNamed() {
        #expect(throws: ConfigurationError.self) { try SigningKeys(hexKeys: key1, hexSalts: "") }
        #expect(throws: ConfigurationError.self) { try SigningKeys(hexKeys: "zz", hexSalts: salt1) }
        #expect(throws: ConfigurationError.self) { try SigningKeys(hexKeys: "\(key1),\(key2)", hexSalts: salt1) }
    }

    @Test func constantTimeComparison() {
        #expect(SigningKeys.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!SigningKeys.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!SigningKeys.constantTimeEqual([1, 2, 3], [1, 2]))
    }

    @Test func signedPathsRoundTripThroughTheParser() throws {
        let keys = try SigningKeys(hexKeys: key1, hexSalts: salt1)
        for base64 in [false, true] {
            let path = SignedPath.path(
                options: "rs:fill:300:200/q:70", source: "http://example.com/a b@2x.jpg?v=1", ext: "webp",
                base64: base64)
            let url = try ProcessingURL(Substring("/" + keys.sign(path) + path))
            #expect(keys.verify(url.signature, path: url.signedPath))
            #expect(url.source == "http://example.com/a b@2x.jpg?v=1")
            #expect(url.extensionFormat == .webp)
            #expect(url.options.width == 300 && url.options.height == 200 && url.options.quality == 70)
        }
    }
}
