/// imgproxy's resizing types (`rs`/`rt`), as Shrink serves them.
package enum ResizingType: String, Sendable, Hashable, CaseIterable {
    /// Keep the aspect ratio, fit inside width × height.
    case fit
    /// Keep the aspect ratio, cover width × height, crop the rest by gravity.
    case fill
    /// As `fill`, but a result smaller than asked keeps the requested aspect ratio (Shrink's `fill` does this
    /// too: it never enlarges without `enlarge`).
    case fillDown = "fill-down"
    /// Stretch to exactly width × height: not supported (Shrink keeps aspect ratios), a 400.
    case force
    /// `fill` when source and result have the same orientation, else `fit`: not supported yet, a 400.
    case auto
}
