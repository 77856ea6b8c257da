import ShrinkCore

extension DecodePath {
    /// The first frame of an interlaced GIF: its indices buffered (1 byte per frame pixel) while the four passes
    /// decode, then its rows handed out top to bottom onto the canvas.
    package static let interlacedFrame = DecodePath("interlacedFrame")
}
