import ShrinkCore
import ShrinkTestSupport
import Testing

/// Shrink's LZW decoder against an encoder written from the specifications (``TestLZW``), in GIF's and TIFF's
/// variants: every byte back through clears, full tables (cleared or frozen), strings longer than the room left,
/// input fed a byte at a time or all at once; the end code, the end of the input and a code outside the table are
/// told apart.
@Suite struct LZWDecoderTests {
    /// Bytes with runs and repeats, so that strings grow long, tables fill and clear: `count` of them below `limit`.
    static func data(_ count: Int, limit: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var out: [UInt8] = []
        while out.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = UInt8(truncatingIfNeeded: (state >> 33) % UInt64(limit))
            let run = Int(state >> 58) % 12 + 1
            out += [UInt8](repeating: value, count: min(run, count - out.count))
            // Repeat an earlier stretch now and then (long strings, the code being defined).
            if state >> 61 == 0 && out.count > 64 {
                let start = Int(state >> 20) % (out.count - 32)
                out += out[start..<start + min(32, count - out.count)]
            }
        }
        return Array(out.prefix(count))
    }

    /// Decodes `coded` with `decoder` in rows of `row` bytes, fed `window` bytes at a time; the outcome that ended
    /// it and the bytes written.
    static func decode(
        _ coded: [UInt8], _ decoder: LZWDecoder, total: Int, row: Int, window: Int
    ) -> (LZWDecoder.Outcome, [UInt8]) {
        var out = [UInt8](repeating: 0xEE, count: total)
        var fed = 0, done = 0
        return coded.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { buffer in
                while done < total {
                    let n = min(row, total - done)
                    var got = 0
                    while true {
                        let outcome = decoder.decode(into: buffer.baseAddress! + done + got, count: n - got)
                        if case .needsInput(let written) = outcome, fed < input.count {
                            got += written
                            let take = min(window, input.count - fed)
                            decoder.feed(UnsafeRawBufferPointer(rebasing: input[fed..<fed + take]))
                            fed += take
                            continue
                        }
                        guard outcome == .filled else { return (outcome, Array(buffer.prefix(done + got))) }
                        break
                    }
                    done += n
                }
                return (.filled, Array(buffer))
            }
        }
    }

    @Test(arguments: [(2, 4), (4, 16), (8, 256), (11, 256)])
    func gifCodesComeBackAtEveryLiteralWidth(bits: Int, limit: Int) {
        let bytes = Self.data(40_000, limit: limit, seed: UInt64(bits))
        let coded = TestLZW.encode(bytes, literalBits: bits, msbFirst: false, earlyChange: false)
        for (row, window) in [(40_000, 1 << 20), (301, 1), (7, 255), (1, 13)] {
            let decoder = LZWDecoder(literalBits: bits, bitOrder: .leastSignificantFirst, earlyChange: false)
            let (outcome, back) = Self.decode(coded, decoder, total: bytes.count, row: row, window: window)
            #expect(outcome == .filled && back == bytes, "literal bits \(bits), rows of \(row), windows of \(window)")
        }
    }

    @Test func tiffCodesComeBackWithEarlyChange() {
        let bytes = Self.data(100_000, limit: 256, seed: 7)
        // libtiff's encoder clears at 4094 entries; clearing at 4096 (one entry more, 12 bits wide) reads the same.
        for clearAt in [4094, 4096] {
            let coded = TestLZW.encode(bytes, literalBits: 8, msbFirst: true, earlyChange: true, clearAt: clearAt)
            for (row, window) in [(100_000, 1 << 20), (3 * 333, 17), (5, 1)] {
                let decoder = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
                let (outcome, back) = Self.decode(coded, decoder, total: bytes.count, row: row, window: window)
                #expect(outcome == .filled && back == bytes, "clear at \(clearAt), rows of \(row)")
            }
        }
        // Read as GIF codes (no early change, other bit order), the same data is not the same bytes.
        let coded = TestLZW.encode(bytes, literalBits: 8, msbFirst: true, earlyChange: true)
        let gif = LZWDecoder(literalBits: 8, bitOrder: .leastSignificantFirst, earlyChange: false)
        #expect(Self.decode(coded, gif, total: bytes.count, row: 1000, window: 4096).1 != bytes)
    }

    @Test func aFullTableThatIsNeverClearedStaysFrozen() {
        let bytes = Self.data(200_000, limit: 200, seed: 3)
        let coded = TestLZW.encode(bytes, literalBits: 8, msbFirst: false, earlyChange: false, clearAt: nil)
        let decoder = LZWDecoder(literalBits: 8, bitOrder: .leastSignificantFirst, earlyChange: false)
        let (outcome, back) = Self.decode(coded, decoder, total: bytes.count, row: 999, window: 100)
        #expect(outcome == .filled && back == bytes)
    }

    @Test func theEndTheInputsEndAndABadCodeAreToldApart() {
        let bytes = Self.data(5000, limit: 256, seed: 11)
        let coded = TestLZW.encode(bytes, literalBits: 8, msbFirst: true, earlyChange: true)
        // The end code after the last byte: asking for one more says so.
        let decoder = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
        let (outcome, back) = Self.decode(coded, decoder, total: bytes.count + 1, row: 1000, window: 64)
        #expect(outcome == .ended(written: 1) || outcome == .ended(written: 0), "\(outcome)")
        #expect(Array(back.prefix(bytes.count)) == bytes && decoder.hasEnded)
        // Cut in half: the decoder asks for more input.
        let cut = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
        let (cutOutcome, cutBack) = Self.decode(
            Array(coded.prefix(coded.count / 2)), cut, total: bytes.count, row: bytes.count, window: 1 << 20)
        guard case .needsInput(let written) = cutOutcome else {
            Issue.record("a cut stream ended with \(cutOutcome)")
            return
        }
        #expect(written > 0 && written < bytes.count && Array(bytes.prefix(cutBack.count)) == cutBack)
        // After a clear, 300 (9 bits: 100101100) is beyond the table's first free code, 258.
        let bad = LZWDecoder(literalBits: 8, bitOrder: .mostSignificantFirst, earlyChange: true)
        let stream: [UInt8] = [0x80, 0x10, 0x65, 0x80] // 256 (clear), 65 ('A'), 300
        let (badOutcome, _) = Self.decode(stream, bad, total: 10, row: 10, window: 4)
        #expect(badOutcome == .invalidCode(300))
    }
}
