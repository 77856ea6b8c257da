import Testing
@testable import ShrinkCore

/// RFC 4231 test cases 1, 2, 4 and 6 (a key longer than a block), and an empty key and message.
@Suite struct HMACSHA256Tests {
    func hex(_ b: [UInt8]) -> String { SHA256.hexDigits(b) }

    @Test func rfc4231() {
        #expect(
            hex(HMACSHA256.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            hex(HMACSHA256.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            hex(
                HMACSHA256.authenticationCode(for: [UInt8](repeating: 0xcd, count: 50), key: (1...25).map { UInt8($0) })
            )
                == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
        #expect(
            hex(
                HMACSHA256.authenticationCode(
                    for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                    key: [UInt8](repeating: 0xaa, count: 131)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // python3: hmac.new(b"", b"", hashlib.sha256).hexdigest()
        #expect(
            hex(HMACSHA256.authenticationCode(for: [], key: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
