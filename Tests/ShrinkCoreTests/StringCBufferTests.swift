import Testing

@testable import ShrinkCore

@Suite struct StringCBufferTests {
    @Test func readsUpToTheFirstNul() {
        let written: [CChar] = Array("libtiff: bad strip".utf8CString) + [65, 66, 0]
        #expect(String(cBuffer: written) == "libtiff: bad strip")
        #expect(String(cBuffer: [CChar](repeating: 0, count: 8)) == "")
    }

    @Test func readsAWholeBufferWithoutNul() {
        let bytes: [CChar] = "abc".utf8.map { CChar(bitPattern: $0) }
        #expect(String(cBuffer: bytes) == "abc")
    }

    @Test func repairsInvalidUTF8AndReadsFixedFields() {
        let bytes: [CChar] = [0x61, CChar(bitPattern: 0xFF), 0x62, 0]
        #expect(String(cBuffer: bytes) == "a\u{FFFD}b")
        let field: (CChar, CChar, CChar, CChar) = (0x68, 0x69, 0, 0x7A)
        #expect(withUnsafeBytes(of: field) { String(cBytes: $0) } == "hi")
    }
}
