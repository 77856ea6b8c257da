/// One frame's colour table as ``GIFQuantizer`` chose it: up to 255 colours, plus the transparent entry last when the
/// frame has pixels that are not shown.
struct GIFPalette: Equatable {
    /// The colours, 3 bytes (R, G, B) each, the transparent entry included (black).
    var rgb: [UInt8]
    /// The index that stands for "not shown", or nil when every pixel is opaque.
    var transparentIndex: Int?

    /// Entries in the table.
    var count: Int { rgb.count / 3 }
}
