import ShrinkCore

/// One frame of an animation at the size it is shown: the canvas composited up to this frame, resampled as the
/// still image would be, and how long it shows.
public struct AnimationFrame: Sendable {
    /// The frame's pixels (rgba8, or what ``ThumbnailOptions/pixelFormat`` asks for), at the thumbnail's size.
    public let pixels: PixelBuffer
    /// How long it shows, in milliseconds, as the file says (0 stays 0: the viewer decides how to show it).
    public let durationMilliseconds: Int
    /// Its position in the animation, from 0.
    public let index: Int
}
