import ShrinkCore

/// Reads the bits of one scan's entropy-coded data: 0xFF00 stuffing removed, restart markers handled on
/// request, zeros fed once the data reaches a marker or its end (as libjpeg does). Every byte access is
/// inside `data`; ``fakeBitsUsed`` tells when a decode needed bits the data did not have.
struct EntropyReader {
    private let bytes: UnsafeRawBufferPointer
    private var pos: Int
    private let end: Int
    private var acc: UInt64 = 0
    private var count = 0            // valid bits at the top of `acc`
    private var stopped = false      // reached a marker or the end
    private var zeroBytes = 0        // zero bytes fed after stopping
    private var nextRestart = 0
    /// Block or MCU count until the next restart marker (0: no restart markers).
    private let interval: Int
    private var untilRestart: Int

    init(_ bytes: UnsafeRawBufferPointer, data: Range<Int>, restartInterval: Int) {
        self.bytes = bytes
        pos = data.lowerBound
        end = data.upperBound
        interval = restartInterval
        untilRestart = restartInterval
    }

    /// The byte offset reading has reached (bytes before it will not be read again).
    var position: Int { pos }

    /// True when bits past the data have been consumed (a truncated or corrupt scan).
    var fakeBitsUsed: Bool { zeroBytes * 8 > count }

    private mutating func refill() {
        // Whole bytes at once while the next eight hold no 0xFF (no stuffing, no marker): the usual case.
        if !stopped && pos + 8 <= end {
            let raw = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: pos, as: UInt64.self))
            let inverted = ~raw
            if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
                let n = (64 - count) / 8
                if n > 0 {
                    acc |= (raw >> UInt64(64 - 8 * n)) << UInt64(64 - count - 8 * n)
                    pos += n
                    count += 8 * n
                }
                return
            }
        }
        while count <= 56 {
            var b: UInt64 = 0
            if !stopped && pos < end {
                let v = bytes[pos]
                if v == 0xFF {
                    if pos + 1 < end && bytes[pos + 1] == 0 {
                        b = 0xFF
                        pos += 2
                    } else {
                        stopped = true
                        zeroBytes += 1
                    }
                } else {
                    b = UInt64(v)
                    pos += 1
                }
            } else {
                stopped = true
                zeroBytes += 1
            }
            acc |= b << UInt64(56 - count)
            count += 8
        }
    }

    @inline(__always)
    mutating func bits(_ n: Int) -> Int {
        if n == 0 { return 0 }
        if count < n { refill() }
        let v = Int(acc >> UInt64(64 - n))
        acc <<= UInt64(n)
        count -= n
        return v
    }

    mutating func bit() -> Int { bits(1) }

    /// `n` bits as a signed coefficient (T.81 F.2.2.1 EXTEND).
    @inline(__always)
    mutating func signed(_ n: Int) -> Int {
        if n == 0 { return 0 }
        let v = bits(n)
        return v < 1 << (n - 1) ? v - (1 << n) + 1 : v
    }

    /// The next Huffman-coded symbol, or nil for a code no table entry matches.
    @inline(__always)
    mutating func decode(_ table: HuffmanCode) -> Int? {
        if count < 16 { refill() }
        let entry = table.lookahead[Int(truncatingIfNeeded: acc >> 55)]
        if entry != 0 {
            let length = Int(entry >> 8)
            acc <<= UInt64(length)
            count -= length
            return Int(entry & 0xFF)
        }
        let code16 = Int(acc >> 48)
        for length in (HuffmanTable.lookaheadBits + 1)...16 {
            let code = code16 >> (16 - length)
            if code <= table.maxCode[length] {
                acc <<= UInt64(length)
                count -= length
                let index = code + table.offset[length]
                return index >= 0 && index < table.symbolCount ? Int(table.symbols[index]) : nil
            }
        }
        return nil
    }

    /// Call before each MCU (or block, in a one-component scan). At a restart boundary the remaining bits
    /// are dropped and the RSTn marker is read; returns true when one was (predictions must be reset).
    /// A missing or misnumbered marker is an error when `strict`.
    @inline(__always)
    mutating func restartIfDue(strict: Bool, path: String) throws(ImageError) -> Bool {
        guard interval > 0 else { return false }
        if untilRestart > 0 {
            untilRestart -= 1
            return false
        }
        return try restart(strict: strict, path: path)
    }

    private mutating func restart(strict: Bool, path: String) throws(ImageError) -> Bool {
        if fakeBitsUsed && strict { throw ImageError(.truncated, "\(path): scan data ends early") }
        acc = 0
        count = 0
        zeroBytes = 0
        stopped = false
        // The marker should come next; skip anything before it when not strict.
        var p = pos
        while p + 1 < end && !(bytes[p] == 0xFF && (0xD0...0xD7).contains(bytes[p + 1])) {
            guard !strict else { throw ImageError(.corruptData, "\(path): restart marker missing") }
            p += 1
        }
        if p + 1 < end {
            if Int(bytes[p + 1] - 0xD0) != nextRestart && strict {
                throw ImageError(.corruptData, "\(path): restart marker out of order")
            }
            pos = p + 2
        } else if strict {
            throw ImageError(.truncated, "\(path): scan data ends before a restart marker")
        } else {
            pos = end
        }
        nextRestart = (nextRestart + 1) & 7
        untilRestart = interval - 1
        return true
    }
}
