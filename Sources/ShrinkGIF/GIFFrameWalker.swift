import ShrinkCore

/// Walks a GIF's blocks from an offset to find the frames after the first, one at a time, without decoding any LZW
/// data: each image descriptor with the graphics control extension before it becomes a ``GIFFrame``; other
/// extensions are skipped, a stray byte between blocks is skipped one at a time (as Pillow does), and the walk ends
/// at the trailer, at the end of the file, or after ``GIFStructure/maxWalkSteps`` blocks and sub-blocks.
///
/// Cost: one byte touched per sub-block; no allocation.
struct GIFFrameWalker {
    private let bytes: ImageBytes
    private let globalPalette: Range<Int>?
    private var position: Int
    private var steps = 0
    /// Why the walk ended early (the file ends inside a block, too many blocks), when it did.
    private(set) var stopped: String?

    /// A walk of `bytes` from `offset` (the block after the first frame's data); frames without a local colour
    /// table use `globalPalette`.
    init(bytes: ImageBytes, globalPalette: Range<Int>?, from offset: Int) {
        self.bytes = bytes
        self.globalPalette = globalPalette
        position = offset
    }

    /// The next frame, or nil when there is none (see ``stopped``).
    mutating func next() -> GIFFrame? {
        let b = bytes.bytes, n = b.count
        func u16(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
        var transparent: Int?, timing = (delay: 0, disposal: 0)
        while position < n {
            guard countStep() else { return nil }
            switch b[position] {
            case 0x3B:
                return nil
            case 0x21:
                guard position + 2 < n else { return stop("the file ends inside an extension") }
                let blocks = position + 2, size = Int(b[blocks])
                if b[position + 1] == 0xF9, size >= 4, blocks + 1 + size <= n {
                    if b[blocks + 1] & 1 != 0 { transparent = Int(b[blocks + 4]) }
                    timing = (u16(blocks + 2), Int(b[blocks + 1] >> 2) & 7)
                }
                guard let end = skipSubBlocks(from: blocks) else { return stop("the file ends inside an extension") }
                position = end
            case 0x2C:
                guard position + 10 <= n else { return stop("the file ends inside an image descriptor") }
                let p = position, packed = b[p + 9]
                var q = p + 10
                var palette = globalPalette
                if packed & 0x80 != 0 {
                    let length = 3 << Int(packed & 7 + 1)
                    guard q + length <= n else { return stop("the file ends inside a local colour table") }
                    palette = q..<q + length
                    q += length
                }
                guard q < n, let end = skipSubBlocks(from: q + 1) else {
                    return stop("the file ends inside a frame's image data")
                }
                position = end
                var frame = GIFFrame(
                    left: u16(p + 1), top: u16(p + 3), size: PixelSize(width: u16(p + 5), height: u16(p + 7)),
                    isInterlaced: packed & 0x40 != 0, palette: palette, transparentIndex: transparent, dataOffset: q,
                    lzwMinimumCodeSize: Int(b[q]))
                frame.delay = timing.delay
                frame.disposal = timing.disposal
                return frame
            default:
                position += 1
            }
        }
        return nil
    }

    /// Counts a block against the cap; false (and stopped) past it.
    private mutating func countStep() -> Bool {
        steps += 1
        if steps > GIFStructure.maxWalkSteps {
            stopped = "stopped after \(GIFStructure.maxWalkSteps) blocks"
            position = bytes.count
            return false
        }
        return true
    }

    /// Ends the walk for `reason`.
    private mutating func stop(_ reason: String) -> GIFFrame? {
        stopped = reason
        position = bytes.count
        return nil
    }

    /// The offset after the sub-blocks starting at `start` and their terminator, or nil when the file ends first or
    /// the cap is reached.
    private mutating func skipSubBlocks(from start: Int) -> Int? {
        let b = bytes.bytes
        var q = start
        while q < b.count {
            guard countStep() else { return nil }
            let size = Int(b[q])
            q += 1 + size
            if size == 0 { return q }
        }
        return nil
    }
}
