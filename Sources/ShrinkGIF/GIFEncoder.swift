import CShrinkCGIF
import ShrinkCore

/// Writes GIF with cgif: the pixels quantised to at most 255 colours a frame by Shrink's own quantiser (exact when
/// they have that few; median cut otherwise), alpha under 128 transparent. Stills are dithered (Floyd–Steinberg) by
/// default, animations are not: dithering noise differs from frame to frame, shimmers, and defeats the coding of
/// unchanged areas. GIF has no room for an ICC profile here: colours are written as they are (sRGB under the default
/// colour policy).
///
/// Memory: an rgba8 copy of pixels in another format, the quantiser's tables, a byte a pixel of indices, cgif's
/// copies of up to three frames and the output.
public struct GIFEncoder: ImageEncoding, AnimationEncoding {
    /// Encoder settings.
    public struct Options: Sendable {
        /// When to diffuse the quantisation error.
        public enum Dithering: String, Sendable, CaseIterable {
            /// Stills dithered, animations not.
            case auto
            /// Every frame dithered.
            case on
            /// No frame dithered.
            case off
        }

        /// When to dither. ``Dithering/auto`` by default.
        public var dithering: Dithering

        /// Options with the defaults above, or the values given.
        public init(dithering: Dithering = .auto) {
            self.dithering = dithering
        }
    }

    /// How this encoder writes.
    public var options: Options

    /// An encoder with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    public var format: ImageFormat { .gif }

    /// `cgif` (its version is not published by the library; Shrink is built against 0.3), loading cgif; why not when
    /// it cannot be loaded.
    public var library: String {
        do {
            try CGIFLibrary.load()
            return "cgif"
        } catch { return "cgif (not available: \(error.reason))" }
    }

    /// Quantised from RGB(A): the decoder's own pixels serve.
    public var preferredPixels: PixelFormatRequest { .native }

    /// Encodes `image` as a still GIF. Fails with `.invalidArgument` for an image over 65535 pixels on a side.
    public func encode(_ image: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        let writer = try GIFAnimationWriter(
            size: image.size, animated: false, loopCount: 1, dither: options.dithering != .off)
        try writer.add(image, durationMilliseconds: 0)
        return try writer.finish()
    }

    /// An animated GIF (``GIFAnimationWriter``) playing `loopCount` times (0 forever).
    public func startAnimation(size: PixelSize, frames: Int, loopCount: Int, metadata: ImageMetadata)
        throws(ImageError) -> any AnimationWriting
    {
        try GIFAnimationWriter(size: size, animated: true, loopCount: loopCount, dither: options.dithering == .on)
    }
}
