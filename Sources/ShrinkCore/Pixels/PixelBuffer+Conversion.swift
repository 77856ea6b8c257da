extension PixelBuffer {
    /// These pixels in `format`: colour to gray keeps luma (BT.601), RGB to YUV and back is BT.601 full range,
    /// alpha is dropped going to a format without it and opaque coming from one, 16 bits become 8. What an
    /// encoder of an app's own does with pixels it does not take as they are. Memory: a new buffer of `format`'s
    /// size (this one when it is already in `format`).
    public func converted(to format: PixelFormat) -> PixelBuffer {
        format == self.format ? self : PixelConverter.convert(self, to: format)
    }
}
