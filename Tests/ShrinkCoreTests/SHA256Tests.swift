import Testing
@testable import ShrinkCore

/// FIPS 180-4 example vectors, and block boundaries (55, 56, 63, 64, 65 bytes pad differently).
@Suite struct SHA256Tests {
    @Test func standardVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func slicesSequencesAndBuffersGiveTheSameDigest() {
        let bytes = (0..<200).map { UInt8($0 & 0xFF) }
        // python3: hashlib.sha256(bytes(range(200))[:n]).hexdigest()
        let known = [
            55: "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59",
            56: "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562",
            63: "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488",
            64: "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108",
            65: "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781",
            127: "92ca0fa6651ee2f97b884b7246a562fa71250fedefe5ebf270d31c546bfea976",
            128: "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5",
            200: "1901da1c9f699b48f6b2636e65cbf73abf99d0441ef67f5c540a42f7051dec6f",
        ]
        for n in [55, 56, 63, 64, 65, 127, 128, 200] {
            let digest = SHA256.hash(bytes[0..<n]) // a contiguous slice
            #expect(SHA256.hash((0..<n).lazy.map { UInt8($0 & 0xFF) }) == digest, "length \(n)") // not contiguous
            #expect(bytes.withUnsafeBytes { SHA256.hash(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } == digest)
            #expect(SHA256.hexDigits(digest) == known[n], "length \(n)")
            #expect(SHA256.hex(bytes[0..<n]) == known[n], "length \(n)")
        }
    }
}
