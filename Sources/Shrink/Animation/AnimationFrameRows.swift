import ShrinkCore

/// The current frame of an ``AnimationDecoding`` as rows (rgba8, the canvas's size), for the row renderer: each
/// frame is resampled by the path a still image takes. One per frame; read on one thread.
final class AnimationFrameRows: RowDecoding, @unchecked Sendable {
    let size: PixelSize
    let format = PixelFormat.rgba8
    private(set) var nextRow = 0
    private let animation: any AnimationDecoding
    private var isOpen = true

    /// The rows of `animation`'s current frame.
    init(_ animation: any AnimationDecoding) {
        self.animation = animation
        size = animation.canvasSize
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: isOpen, path: "animation frame")
        for i in 0..<count {
            animation.readRow(nextRow, into: (buffer + i * bytesPerRow).assumingMemoryBound(to: UInt8.self))
            nextRow += 1
        }
        return count
    }

    func finish() throws(ImageError) { isOpen = false }
}
