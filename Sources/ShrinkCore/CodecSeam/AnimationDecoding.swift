/// A running decode of an animation, one frame at a time on a canvas the size of the image: the codec decodes the
/// next frame, disposes of the previous one and blends the new one exactly as the format says, then hands out the
/// canvas's rows as rgba8 (straight alpha). Only the canvas and what the codec needs to dispose of a frame are held:
/// never two frames' pixels, never all frames, so memory is flat in the number of frames.
///
/// Rows are read top to bottom through ``readRow(_:into:)`` any number of times per frame; ``advance()`` moves on.
public protocol AnimationDecoding: AnyObject {
    /// The canvas: every frame's size.
    var canvasSize: PixelSize { get }
    /// How many times the animation plays (0: forever), as the file says; 1 when it says nothing.
    var loopCount: Int { get }
    /// Frames decoded so far (the current frame's index is one less).
    var framesRead: Int { get }
    /// Damage stepped over, one line each (a frame that could not be decoded ends the animation before it).
    var warnings: [String] { get }
    /// Decodes the next frame onto the canvas; returns its duration in milliseconds (0 when the file says 0), or nil
    /// after the last frame. Fails on damage only in the first frame (later damage ends the animation with a
    /// warning) and with `.cancelled` when `monitor` (given at the start) is cancelled.
    func advance() throws(ImageError) -> Int?
    /// Writes row `y` of the current frame's canvas as `canvasSize.width` rgba8 pixels.
    func readRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>)
}
