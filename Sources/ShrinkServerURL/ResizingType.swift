/// imgproxy's resizing types (`rs`/`rt`), with imgproxy's meanings.
package enum ResizingType: String, Sendable, Hashable, CaseIterable {
    /// Keep the aspect ratio, fit inside width × height.
    case fit
    /// Keep the aspect ratio, cover width × height, crop the rest by gravity; a source smaller than the box keeps
    /// its own side where it is smaller (``ThumbnailTarget/Fit/fill``).
    case fill
    /// As `fill`, but a result smaller than asked keeps the requested aspect ratio (``ThumbnailTarget/Fit/cover``).
    case fillDown = "fill-down"
    /// Stretch to exactly width × height (``ThumbnailTarget/Fit/stretch``).
    case force
    /// `fill` when source and box have the same orientation, else `fit` (``ThumbnailTarget/Fit/auto``).
    case auto
}
