/// An encoder that also writes animations: frames in one at a time (each at the animation's size, with its
/// duration), the file's bytes out at the end. A writer that registers one says so with
/// ``ImageWriter/Accepts/animation``.
public protocol AnimationEncoding: ImageEncoding {
    /// Starts an animation of `size` frames that plays `loopCount` times (0: forever), keeping the parts of `metadata`
    /// the encoder's options keep; at most `frames` frames will be added (what the source's header counts).
    func startAnimation(size: PixelSize, frames: Int, loopCount: Int, metadata: ImageMetadata) throws(ImageError)
        -> any AnimationWriting
}

/// One animation being written.
public protocol AnimationWriting: AnyObject {
    /// Adds a frame of the animation's size shown for `durationMilliseconds` (0 stays 0: the viewer decides how to
    /// show it).
    func add(_ frame: PixelBuffer, durationMilliseconds: Int) throws(ImageError)
    /// The file, after the last frame.
    func finish() throws(ImageError) -> [UInt8]
}
