import ShrinkCore

/// Shrink's own GIF LZW decoder, for the minimum code sizes giflib refuses (9 to 11; see ``GIFLines``): the frame's
/// data sub-blocks read in place from the mapped file, codes of the minimum size plus one growing to 12 bits, the
/// table cleared by the clear code and frozen when full (as giflib and Pillow do), the end code ending the data.
/// A string longer than one row carries over to the next.
///
/// Memory: the code table (4096 prefixes and suffixes) and a string stack of 4096 bytes, about 16 KiB.
final class GIFLZWLines: GIFLineReading {
    private let bytes: ImageBytes
    private let path: String
    private let minimumSize: Int
    /// The next byte of data to read, and how many bytes of the current sub-block remain from there.
    private var position: Int
    private var blockLeft = 0
    private var bits: UInt64 = 0
    private var bitCount = 0
    private var codeSize: Int
    private var nextCode: Int
    private var previous = -1
    private var first: UInt8 = 0
    private var ended = false
    private let prefix = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
    private let suffix = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    /// Decoded bytes of the current string not yet handed out, last first (`stackCount` of them).
    private let stack = UnsafeMutablePointer<UInt8>.allocate(capacity: 4097)
    private var stackCount = 0

    /// A decoder of `frame`'s data (its minimum code size byte at `frame.dataOffset`, sub-blocks after it).
    init(bytes: ImageBytes, frame: GIFFrame, path: String) {
        self.bytes = bytes
        self.path = path
        minimumSize = frame.lzwMinimumCodeSize
        position = frame.dataOffset + 1
        codeSize = minimumSize + 1
        nextCode = (1 << minimumSize) + 2
        for i in 0..<min(1 << minimumSize, 4096) {
            prefix[i] = 0xFFFF
            suffix[i] = UInt8(truncatingIfNeeded: i)
        }
    }

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        stack.deallocate()
    }

    func read(into line: UnsafeMutablePointer<UInt8>, count: Int, row: String) throws(ImageError) {
        let done = bytes.bytes.withMemoryRebound(to: UInt8.self) { data in
            Self.decode(self, data, into: line, count: count)
        }
        switch done {
        case .success: return
        case .truncated:
            throw ImageError(.truncated, "\(path): the first frame's LZW data ends before the frame does (\(row))")
        case .invalidCode(let code):
            throw ImageError(.corruptData, "\(path): invalid GIF LZW data (\(row)): code \(code) is not in the table")
        }
    }

    private enum Outcome { case success, truncated, invalidCode(Int) }

    /// Fills `count` indices of `out` from `state`'s pending string and the codes that follow in `data`.
    private static func decode(
        _ state: GIFLZWLines, _ data: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int
    ) -> Outcome {
        var filled = 0
        let clear = 1 << state.minimumSize, end = clear + 1
        while filled < count {
            if state.stackCount > 0 {
                let n = min(state.stackCount, count - filled)
                for _ in 0..<n {
                    state.stackCount -= 1
                    out[filled] = state.stack[state.stackCount]
                    filled += 1
                }
                continue
            }
            guard !state.ended else { return .truncated }
            // The next code, from the sub-blocks' bytes.
            while state.bitCount < state.codeSize {
                if state.blockLeft == 0 {
                    guard state.position < data.count, data[state.position] != 0 else {
                        state.ended = true
                        return .truncated
                    }
                    state.blockLeft = Int(data[state.position])
                    state.position += 1
                }
                guard state.position < data.count else {
                    state.ended = true
                    return .truncated
                }
                state.bits |= UInt64(data[state.position]) << UInt64(state.bitCount)
                state.bitCount += 8
                state.position += 1
                state.blockLeft -= 1
            }
            let code = Int(state.bits & ((1 << UInt64(state.codeSize)) - 1))
            state.bits >>= UInt64(state.codeSize)
            state.bitCount -= state.codeSize
            if code == clear {
                state.codeSize = state.minimumSize + 1
                state.nextCode = clear + 2
                state.previous = -1
                continue
            }
            if code == end {
                state.ended = true
                return .truncated
            }
            var walk: Int
            if state.previous < 0 {
                guard code < clear else { return .invalidCode(code) }
                walk = code
            } else if code < state.nextCode {
                walk = code
            } else if code == state.nextCode && state.nextCode < 4096 {
                // The string being defined: the previous one and its own first byte.
                state.stack[state.stackCount] = state.first
                state.stackCount += 1
                walk = state.previous
            } else {
                return .invalidCode(code)
            }
            // Push the string (last byte first); its first byte ends the walk.
            while walk >= clear {
                state.stack[state.stackCount] = state.suffix[walk]
                state.stackCount += 1
                walk = Int(state.prefix[walk])
            }
            state.stack[state.stackCount] = UInt8(truncatingIfNeeded: walk)
            state.stackCount += 1
            state.first = UInt8(truncatingIfNeeded: walk)
            if state.previous >= 0 && state.nextCode < 4096 {
                state.prefix[state.nextCode] = UInt16(state.previous)
                state.suffix[state.nextCode] = state.first
                state.nextCode += 1
                if state.nextCode == 1 << state.codeSize && state.codeSize < 12 { state.codeSize += 1 }
            }
            state.previous = code
        }
        return .success
    }
}
