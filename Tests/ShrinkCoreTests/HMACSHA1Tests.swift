import ShrinkCore
import Testing

/// HMAC-SHA1 against RFC 2202's test vectors (what thumbor's signatures are made of).
@Suite struct HMACSHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func rfc2202Vectors() {
        #expect(
            hex(HMACSHA1.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)))
                == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(
            hex(HMACSHA1.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
                == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(
            hex(
                HMACSHA1.authenticationCode(
                    for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                    key: [UInt8](repeating: 0xaa, count: 80)))
                == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
    }
}
