import ShrinkCore

/// A frame's LZW data read a row of palette indices at a time, rows in the order the file stores them (an interlaced
/// frame's four passes one after another), by Shrink's LZW decoder (``LZWDecoder``, least significant bit first):
/// the data sub-blocks' bytes gathered from the mapped file into a window of ``windowSize`` bytes at a time (the
/// length bytes left out), codes of the minimum code size plus one growing to 12 bits, the table cleared by the clear
/// code and frozen when full (as giflib and Pillow do). Every minimum code size the format allows, 1 to 11 (giflib
/// refuses 9 to 11, which Pillow and libvips decode). The mapping's pages are released behind the read position
/// every ``dropStep`` bytes.
///
/// Memory: ``heldBytes``.
final class GIFLZWLines {
    private let bytes: ImageBytes
    private let path: String
    private let name: String
    private let decoder: LZWDecoder
    /// The next sub-block's length byte, and how many bytes of the current sub-block remain before it.
    private var position: Int
    private var blockLeft = 0
    private var pages: ResidentPageRelease
    /// True once the terminator (or the file's end) has been reached: no window follows.
    private var dataEnded = false
    private let window: UnsafeMutablePointer<UInt8>
    /// Bytes of sub-block data gathered per window.
    static let windowSize = 16 << 10
    /// The mapped file's pages are released every this many bytes read.
    static let dropStep = 64 << 10
    /// What a reader holds: the decoder's table and carry-over and the window.
    static let heldBytes = LZWDecoder.heldBytes + windowSize

    /// A reader of `frame`'s data (its minimum code size byte at `frame.dataOffset`, sub-blocks after it); `name`
    /// ("the first frame", "frame 3") names the frame in errors. A minimum code size of 12 or more leaves no room for
    /// a code table within 12-bit codes: `.corruptData` (libvips refuses it too). Size 0 is the callers' (its pixels
    /// read as index 0).
    init(bytes: ImageBytes, frame: GIFFrame, path: String, name: String) throws(ImageError) {
        guard (1...11).contains(frame.lzwMinimumCodeSize) else {
            throw ImageError(
                .corruptData,
                "\(path): invalid GIF LZW minimum code size \(frame.lzwMinimumCodeSize) in \(name) (codes are at most 12 bits)"
            )
        }
        self.bytes = bytes
        self.path = path
        self.name = name
        window = .allocate(capacity: Self.windowSize)
        decoder = LZWDecoder(
            literalBits: frame.lzwMinimumCodeSize, bitOrder: .leastSignificantFirst, earlyChange: false)
        position = frame.dataOffset + 1
        pages = ResidentPageRelease(bytes, from: frame.dataOffset, step: Self.dropStep)
    }

    deinit { window.deallocate() }

    /// Decodes the next `count` indices (one frame row) into `line`; `row` names it in errors. Fails with
    /// `.truncated` when the data (or the end code) ends first, `.corruptData` for a code not in the table.
    func read(into line: UnsafeMutablePointer<UInt8>, count: Int, row: String) throws(ImageError) {
        var done = 0
        while true {
            switch decoder.decode(into: line + done, count: count - done) {
            case .filled: return
            case .needsInput(let written):
                done += written
                let n = gather()
                guard n > 0 else {
                    throw ImageError(.truncated, "\(path): \(name)'s LZW data ends before the frame does (\(row))")
                }
                decoder.feed(UnsafeRawBufferPointer(start: window, count: n))
            case .ended:
                throw ImageError(.truncated, "\(path): \(name)'s LZW data ends before the frame does (\(row))")
            case .invalidCode(let code):
                throw ImageError(
                    .corruptData, "\(path): invalid GIF LZW data in \(name) (\(row)): code \(code) is not in the table")
            }
        }
    }

    /// Copies the next sub-blocks' bytes into the window; returns how many (0 at the terminator or the file's end).
    private func gather() -> Int {
        guard !dataEnded else { return 0 }
        let data = bytes.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), total = bytes.count
        var n = 0
        while n < Self.windowSize {
            if blockLeft == 0 {
                guard position < total, data[position] != 0 else {
                    dataEnded = true
                    break
                }
                blockLeft = Int(data[position])
                position += 1
            }
            let take = min(blockLeft, Self.windowSize - n, total - position)
            guard take > 0 else {
                dataEnded = true
                break
            }
            (window + n).update(from: data + position, count: take)
            n += take
            position += take
            blockLeft -= take
        }
        pages.release(below: position)
        return n
    }
}
