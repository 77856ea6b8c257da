/// An LZW decoder for GIF's and TIFF's variable-width codes (up to 12 bits): the code stream read from byte
/// windows the caller feeds (``feed(_:)``), strings written into the caller's buffers a run at a time, a string
/// longer than the room left carried over to the next call.
///
/// Each table entry keeps the last bytes of its string (up to eight, in one word) and the entry holding the rest,
/// so a string is written in eight-byte stores, most of them one store, rather than a byte a step down a chain of
/// prefixes. GIF and TIFF differ only in the options: the bit order (GIF least significant bit first, TIFF most),
/// the first code size, and TIFF's "early change" (codes widen one entry before the table reaches the width's
/// limit). Both clear the table with their clear code and end with their end code; a table full at 4,096 entries
/// stops growing until the next clear (as giflib, libtiff and Pillow do).
///
/// Memory: ``heldBytes`` (the table, 4,096 entries of 16 bytes, and a 4 KiB carry-over buffer).
package final class LZWDecoder {
    /// Whether a byte's codes start at its least significant bit (GIF) or its most significant bit (TIFF).
    package enum BitOrder: Sendable { case leastSignificantFirst, mostSignificantFirst }

    /// What a call to ``decode(into:count:)`` ended with.
    package enum Outcome: Equatable, Sendable {
        /// `count` bytes were written.
        case filled
        /// The bytes fed so far end inside the data: ``feed(_:)`` the next window and call again (the bytes written
        /// so far are in the buffer; `written` of them).
        case needsInput(written: Int)
        /// The end code came before `count` bytes (`written` of them were written).
        case ended(written: Int)
        /// A code that is not in the table (the data is corrupt).
        case invalidCode(Int)
    }

    private static let tableSize = 4096
    /// What a decoder holds.
    package static let heldBytes = tableSize * MemoryLayout<Entry>.stride + tableSize + 8
    private static let none: UInt16 = 0xFFFF

    private let literalBits: Int
    private let order: BitOrder
    private let early: Int
    private let clear: Int
    private let end: Int

    /// A table entry: its string's last up-to-eight bytes (the first of them in the low byte) and how many, the entry
    /// holding the string before them (``none`` for none), the string's length and first byte; 16 bytes, so that an
    /// entry is one load from one cache line.
    private struct Entry {
        var tail: UInt64
        var head: UInt16
        var length: UInt16
        var tailCount: UInt8
        var first: UInt8
    }

    private let table = UnsafeMutablePointer<Entry>.allocate(capacity: tableSize)
    /// A string that did not fit, and how much of it is still to hand out.
    private let carry = UnsafeMutablePointer<UInt8>.allocate(capacity: tableSize + 8)
    private var carryStart = 0
    private var carryEnd = 0

    private var input: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    private var position = 0
    private var bits: UInt64 = 0
    private var bitCount = 0
    private var codeSize: Int
    private var nextCode: Int
    private var previous = -1
    private var finished = false

    /// A decoder whose literal codes are `literalBits` wide (GIF's minimum code size, 1…11; TIFF's 8): its clear code
    /// is `1 << literalBits`, its end code the next, its first codes `literalBits + 1` bits wide. `earlyChange`
    /// widens codes one entry early, as TIFF does.
    package init(literalBits: Int, bitOrder: BitOrder, earlyChange: Bool) {
        precondition((1...11).contains(literalBits), "LZW literal width \(literalBits) outside 1…11")
        self.literalBits = literalBits
        order = bitOrder
        early = earlyChange ? 1 : 0
        clear = 1 << literalBits
        end = clear + 1
        codeSize = literalBits + 1
        nextCode = clear + 2
        for code in 0..<clear {
            let byte = UInt8(truncatingIfNeeded: code)
            (table + code).initialize(
                to: Entry(tail: UInt64(byte), head: Self.none, length: 1, tailCount: 1, first: byte))
        }
    }

    deinit {
        table.deallocate()
        carry.deallocate()
    }

    /// Gives the decoder the next window of coded bytes (the previous one must be used up: ``decode(into:count:)``
    /// said `.needsInput`). The bytes must stay valid until the decoder asks for more or is done.
    package func feed(_ bytes: UnsafeRawBufferPointer) {
        input = bytes
        position = 0
    }

    /// True once the end code has been read.
    package var hasEnded: Bool { finished }

    /// Writes the next `count` decoded bytes into `out`.
    package func decode(into out: UnsafeMutablePointer<UInt8>, count: Int) -> Outcome {
        var written = 0
        if carryStart < carryEnd {
            let n = min(carryEnd - carryStart, count)
            out.update(from: carry + carryStart, count: n)
            carryStart += n
            written = n
            if written == count { return .filled }
        }
        if finished { return .ended(written: written) }
        return run(out, written, count)
    }

    /// The decoding loop, its state in locals, written back on every exit.
    private func run(_ out: UnsafeMutablePointer<UInt8>, _ start: Int, _ count: Int) -> Outcome {
        var written = start
        var bits = bits, bitCount = bitCount, codeSize = codeSize, nextCode = nextCode, previous = previous
        var position = position
        let data = input.baseAddress?.assumingMemoryBound(to: UInt8.self), available = input.count
        let table = table
        let clear = clear, end = end, early = early, msbFirst = order == .mostSignificantFirst
        defer {
            self.bits = bits
            self.bitCount = bitCount
            self.codeSize = codeSize
            self.nextCode = nextCode
            self.previous = previous
            self.position = position
        }
        while written < count {
            // Refill: whole bytes while they fit in the 64-bit buffer.
            if bitCount < codeSize {
                if let data, available - position >= 8 {
                    let word = UnsafeRawPointer(data + position).loadUnaligned(as: UInt64.self)
                    let take = (63 - bitCount) >> 3
                    if msbFirst {
                        bits |= UInt64(bigEndian: word) &>> UInt64(bitCount)
                    } else {
                        bits |= UInt64(littleEndian: word) &<< UInt64(bitCount)
                    }
                    // Only the `take` whole bytes count; clear any bits beyond them.
                    let kept = bitCount + 8 * take
                    if msbFirst {
                        bits &= kept == 64 ? ~0 : ~(~UInt64(0) &>> UInt64(kept))
                    } else {
                        bits &= kept == 64 ? ~0 : (UInt64(1) &<< UInt64(kept)) &- 1
                    }
                    position += take
                    bitCount = kept
                } else {
                    while bitCount < codeSize {
                        guard let data, position < available else { return .needsInput(written: written) }
                        if msbFirst {
                            bits |= UInt64(data[position]) &<< UInt64(56 - bitCount)
                        } else {
                            bits |= UInt64(data[position]) &<< UInt64(bitCount)
                        }
                        position += 1
                        bitCount += 8
                    }
                }
            }
            let code: Int
            if msbFirst {
                code = Int(truncatingIfNeeded: bits &>> UInt64(64 - codeSize))
                bits = bits &<< UInt64(codeSize)
            } else {
                code = Int(truncatingIfNeeded: bits & ((1 &<< UInt64(codeSize)) &- 1))
                bits = bits &>> UInt64(codeSize)
            }
            bitCount -= codeSize

            if code == clear {
                codeSize = literalBits + 1
                nextCode = clear + 2
                previous = -1
                continue
            }
            if code == end {
                finished = true
                return .ended(written: written)
            }
            if previous < 0 {
                guard code < clear else { return .invalidCode(code) }
            } else {
                guard code < nextCode || (code == nextCode && nextCode < Self.tableSize) else {
                    return .invalidCode(code)
                }
                if nextCode < Self.tableSize {
                    // The new entry: the previous string and the first byte of this one (of the previous one when
                    // this code is the entry being made).
                    let before = table[previous]
                    let byte = code < nextCode ? table[code].first : before.first
                    let n = Int(before.tailCount)
                    table[nextCode] =
                        n < 8
                        ? Entry(
                            tail: before.tail | UInt64(byte) &<< UInt64(8 &* n), head: before.head,
                            length: before.length &+ 1, tailCount: UInt8(n &+ 1), first: before.first)
                        : Entry(
                            tail: UInt64(byte), head: UInt16(previous), length: before.length &+ 1, tailCount: 1,
                            first: before.first)
                    nextCode += 1
                    if nextCode + early == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                }
            }
            previous = code
            let entry = table[code]
            let size = Int(entry.length)
            if count - written >= size + 7 {
                Self.write(entry, size: size, at: out + written, table)
                written += size
            } else {
                // Too long for the room left (its stores may run seven bytes past it): through the carry buffer.
                Self.write(entry, size: size, at: carry, table)
                let n = min(size, count - written)
                (out + written).update(from: carry, count: n)
                written += n
                carryStart = n
                carryEnd = size
            }
        }
        return .filled
    }

    /// Writes `entry`'s string of `size` bytes at `out`, storing up to seven bytes past its end.
    @inline(__always)
    private static func write(
        _ entry: Entry, size: Int, at out: UnsafeMutablePointer<UInt8>, _ table: UnsafeMutablePointer<Entry>
    ) {
        // The last piece (1…8 bytes) first, then the full eight-byte pieces before it.
        var end = size &- Int(entry.tailCount)
        UnsafeMutableRawPointer(out + end).storeBytes(of: UInt64(littleEndian: entry.tail), as: UInt64.self)
        var k = entry.head
        while k != none {
            let piece = table[Int(k)]
            end &-= 8
            UnsafeMutableRawPointer(out + end).storeBytes(of: UInt64(littleEndian: piece.tail), as: UInt64.self)
            k = piece.head
        }
    }
}
