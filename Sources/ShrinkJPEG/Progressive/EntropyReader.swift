import ShrinkCore

/// Reads the bits of one scan's entropy-coded data: 0xFF00 stuffing removed, restart markers handled on
/// request, zeros fed once the data reaches a marker or its end (as libjpeg does). Every byte access is
/// inside `data`; ``fakeBitsUsed`` tells when a decode needed bits the data did not have.
struct EntropyReader {
    private let bytes: UnsafeRawBufferPointer
    private var pos: Int
    private let end: Int
    private var acc: UInt64 = 0
    private var count = 0 // valid bits at the top of `acc`
    private var stopped = false // reached a marker or the end
    private var zeroBytes = 0 // zero bytes fed after stopping
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
    var fakeBitsUsed: Bool { stopped && zeroBytes &* 8 > count }

    /// True when reading stopped at the end of the bytes rather than at a marker (the file is cut short; a
    /// lone 0xFF as the last byte is no marker).
    var reachedEndOfData: Bool { stopped && pos + 1 >= end }

    /// True when an earlier restart interval ran short (``fakeBitsUsed`` then), or this one has.
    var ranShortAnywhere: Bool { ranShort || fakeBitsUsed }
    private var ranShort = false
    /// True once a restart marker was missing, misnumbered or preceded by stray bytes, and was resynchronised.
    private(set) var resynchronised = false

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

    /// One block of a sequential scan with its AC coefficients dropped: the DC difference decoded with `dc`,
    /// then each AC code and its value bits skipped with one lookup in `skip` (``ACSkipTable``); codes too long
    /// for the lookahead tables go through `dc` or `ac` as usual. The bit buffer is held in locals, written
    /// back only around a refill or a long code. Returns the DC difference, and false for a code no table entry
    /// matches (the difference then reads 0, or the block ends there, as libjpeg reads a bad code).
    @inline(__always)
    mutating func dcOnlyBlock(_ dc: HuffmanCode, _ skip: UnsafePointer<UInt32>, _ ac: HuffmanCode) -> (
        diff: Int, ok: Bool
    ) {
        var a = acc, c = count, ok = true, diff = 0
        if c < 32 {
            acc = a; count = c; refill(); a = acc; c = count
        }
        let e = Int(dc.lookahead[Int(truncatingIfNeeded: a &>> 55)])
        if e != 0 && e & 0xFF <= 15 {
            let length = e &>> 8, s = e & 0xFF
            a = a &<< UInt64(length)
            c &-= length
            if s > 0 {
                let v = Int(truncatingIfNeeded: a &>> UInt64(64 &- s))
                a = a &<< UInt64(s)
                c &-= s
                diff = v < 1 &<< (s &- 1) ? v &- (1 &<< s) &+ 1 : v
            }
        } else {
            acc = a; count = c
            if let s = decode(dc), s <= 15 { diff = signed(s) } else { ok = false }
            a = acc; c = count
        }
        // While the index is below 48 an entry's codes (16 steps at most) cannot run past the block's end, so
        // all of them are taken; past it, one code at a time.
        var k = 1, status = 0
        while k < 48 && status == 0 { status = skipCodes(&a, &c, &k, skip, ac, firstOnly: false) }
        while k < 64 && status == 0 { status = skipCodes(&a, &c, &k, skip, ac, firstOnly: true) }
        acc = a; count = c
        return (diff, ok && status != 2)
    }

    /// One lookup of ``dcOnlyBlock(_:_:_:)``'s AC loop on its bit buffer `a`, `c`: the entry's codes (or its
    /// first alone) dropped and `k` moved on. 0 to go on, 1 when the block ends, 2 for a bad code.
    @inline(__always)
    private mutating func skipCodes(
        _ a: inout UInt64, _ c: inout Int, _ k: inout Int, _ skip: UnsafePointer<UInt32>,
        _ ac: HuffmanCode, firstOnly: Bool
    ) -> Int {
        if c < ACSkipTable.bits {
            acc = a; count = c; refill(); a = acc; c = count
        }
        var entry = Int(skip[Int(truncatingIfNeeded: a &>> UInt64(64 - ACSkipTable.bits))])
        if firstOnly { entry &>>= 13 }
        if entry == 0 {
            // A code longer than the table's window: the ordinary table, with the buffer written back.
            acc = a; count = c
            let status = skipLongCode(&k, ac)
            a = acc; c = count
            return status
        }
        let n = entry & 31
        if n > c {
            // A long value after its code (up to 27 bits): the buffer holds 12 or more, refill for the rest.
            acc = a; count = c; refill(); a = acc; c = count
        }
        a = a &<< UInt64(n)
        c &-= n
        if entry & 1 << 12 != 0 { return 1 }
        k &+= entry &>> 5 & 127
        return 0
    }

    /// One AC code the skip table does not cover, decoded with `ac` and its value bits dropped, for
    /// ``dcOnlyBlock(_:_:_:)``: 0 to go on, 1 when the block ends, 2 for a bad code.
    @inline(never)
    private mutating func skipLongCode(_ k: inout Int, _ ac: HuffmanCode) -> Int {
        guard let rs = decode(ac) else { return 2 }
        let run = rs >> 4, size = rs & 15
        if size != 0 {
            _ = bits(size)
            k &+= run &+ 1
        } else if run == 15 {
            k &+= 16
        } else {
            return 1
        }
        return 0
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
        if fakeBitsUsed {
            if strict {
                throw ImageError(.corruptData, "\(path): scan data ends early (a marker inside the image data)")
            }
            ranShort = true
        }
        // Whole bytes of data read ahead and not used belong to no block: libjpeg counts them as discarded.
        let unused = count - 8 * zeroBytes >= 8
        acc = 0
        count = 0
        zeroBytes = 0
        stopped = false
        // As libjpeg reads and resynchronises restart markers (jdmarker.c, read_restart_marker and
        // jpeg_resync_to_restart): the expected RSTn is read; another marker is either stepped over (one that
        // cannot belong here, or an earlier RSTn), taken as the expected one (an RSTn too far off), or left
        // unread, so the interval reads as zeros (any other valid marker, or one of the next two RSTn). Bytes
        // skipped on the way, or any marker but the expected one, are damage (``resynchronised``).
        var p = pos
        while true {
            guard let (at, skippedBytes) = Self.nextMarker(bytes, from: p, end: end) else {
                if strict { throw ImageError(.truncated, "\(path): scan data ends before a restart marker") }
                resynchronised = true
                pos = end
                break
            }
            let marker = Int(bytes[at + 1]), expected = 0xD0 + nextRestart, skipped = skippedBytes || unused
            if marker == expected && !skipped {
                pos = at + 2
                break
            }
            if strict {
                throw ImageError(
                    .corruptData,
                    marker == expected
                        ? "\(path): stray bytes before a restart marker"
                        : "\(path): restart marker missing or out of order")
            }
            resynchronised = true
            let n = nextRestart
            func near(_ d: Int) -> Int { 0xD0 + (n + d) & 7 }
            if marker == expected {
                pos = at + 2 // after stray bytes
                break
            } else if marker < 0xC0 || (0xD0...0xD7).contains(marker) && (marker == near(-1) || marker == near(-2)) {
                p = at + 2 // not a marker for here, or an earlier restart: look further
            } else if !(0xD0...0xD7).contains(marker) || marker == near(1) || marker == near(2) {
                pos = at // left unread: this interval reads as zeros
                break
            } else {
                pos = at + 2 // a restart marker too far off: taken as the expected one
                break
            }
        }
        nextRestart = (nextRestart + 1) & 7
        untilRestart = interval - 1
        return true
    }

    /// The next marker at or after `from`: the offset of its last 0xFF (fill bytes allowed before it) and whether
    /// anything else was skipped on the way (other bytes, stuffed 0xFF 0x00 pairs), as libjpeg's next_marker
    /// counts discarded bytes; nil when the data ends first.
    static func nextMarker(_ bytes: UnsafeRawBufferPointer, from: Int, end: Int) -> (at: Int, skipped: Bool)? {
        var p = from, skipped = false
        while p + 1 < end {
            if bytes[p] != 0xFF {
                p += 1
                skipped = true
                continue
            }
            var q = p + 1
            while q < end && bytes[q] == 0xFF { q += 1 }
            guard q < end else { return nil }
            if bytes[q] != 0 { return (q - 1, skipped) }
            p = q + 1
            skipped = true
        }
        return nil
    }
}
