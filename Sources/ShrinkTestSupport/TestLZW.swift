/// An LZW encoder for tests, written from the GIF and TIFF specifications as encoders apply them: a clear code
/// first, codes widening as the table grows (one entry early for TIFF), and when the table fills either a clear and
/// a fresh table (what encoders write) or a frozen table whose codes go on being used (what GIF decoders must
/// also read); the end code last.
public enum TestLZW {
    /// `bytes` LZW-coded with literal codes `literalBits` wide (GIF's minimum code size; TIFF's 8), bits packed
    /// most significant first when `msbFirst` (TIFF), least otherwise (GIF); `earlyChange` widens codes one entry
    /// early (TIFF); `clearAt` is the table size at which a clear is written (4096 for GIF, 4094 for TIFF as libtiff
    /// writes it), nil to keep a full table frozen.
    public static func encode(
        _ bytes: [UInt8], literalBits: Int, msbFirst: Bool, earlyChange: Bool, clearAt: Int? = 4096
    ) -> [UInt8] {
        let clear = 1 << literalBits, end = clear + 1, early = earlyChange ? 1 : 0
        var table: [[UInt8]: Int] = [:]
        var width = literalBits + 1, next = end + 1
        var out: [UInt8] = [], bits = 0, count = 0
        func emit(_ code: Int) {
            if msbFirst {
                bits = bits << width | code
                count += width
                while count >= 8 {
                    out.append(UInt8(truncatingIfNeeded: bits >> (count - 8)))
                    count -= 8
                }
                bits &= (1 << count) - 1
            } else {
                bits |= code << count
                count += width
                while count >= 8 {
                    out.append(UInt8(bits & 0xFF))
                    bits >>= 8
                    count -= 8
                }
            }
        }
        func reset() {
            table = Dictionary(uniqueKeysWithValues: (0..<min(clear, 256)).map { ([UInt8($0)], $0) })
            width = literalBits + 1
            next = end + 1
        }
        reset()
        emit(clear)
        var current: [UInt8] = []
        for k in bytes {
            let extended = current + [k]
            if table[extended] != nil {
                current = extended
                continue
            }
            emit(table[current]!)
            if let clearAt, next >= clearAt {
                emit(clear)
                reset()
            } else if next < 4096 {
                table[extended] = next
                next += 1
                if next + early > 1 << width && width < 12 { width += 1 }
            }
            current = [k]
        }
        if !current.isEmpty { emit(table[current]!) }
        emit(end)
        if count > 0 { out.append(UInt8(truncatingIfNeeded: msbFirst ? bits << (8 - count) : bits)) }
        return out
    }
}
