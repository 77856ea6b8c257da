import ShrinkCore

/// A frame of a GIF as its image descriptor and the graphics control extension before it describe it: where it
/// sits, how its rows are ordered, which colours and which transparent index it uses, how long it shows and how it is
/// disposed of, and where its LZW data starts. Found by ``GIFStructure`` (the first frame) and ``GIFFrameWalker``
/// (the others) without decoding anything; a few words of memory.
package struct GIFFrame: Sendable, Equatable {
    /// Column of the frame's left edge on the logical screen.
    package let left: Int
    /// Row of the frame's top edge on the logical screen.
    package let top: Int
    /// The frame's size (never empty: an empty first frame is refused).
    package let size: PixelSize
    /// Rows are stored in the four interlace passes (0, 4, 2, 1 mod 8) rather than top to bottom.
    package let isInterlaced: Bool
    /// The bytes of the colour table the frame uses (its local table, else the global one): 3 bytes per entry,
    /// 2 to 256 entries. nil when the file has neither; indices then read as gray levels (as in Pillow).
    package let palette: Range<Int>?
    /// The transparent index set by the graphics control extension before the frame, when it sets one.
    package let transparentIndex: Int?
    /// Offset in the file of the frame's LZW minimum code size byte; the image data sub-blocks follow it.
    package let dataOffset: Int
    /// The LZW minimum code size as stored (2–8 from usual encoders; 1 and 9–11 are read too, 0 leaves no room for a
    /// code table: see ``GIFRowDecoder``).
    package let lzwMinimumCodeSize: Int
    /// How long the frame shows, in hundredths of a second, as the graphics control extension says (0 without one).
    package var delay: Int = 0
    /// What becomes of the frame's rectangle before the next frame: 0 or 1 kept, 2 cleared (to transparent, as
    /// browsers do), 3 restored to what was there before the frame; other values are kept.
    package var disposal: Int = 0

    package init(
        left: Int, top: Int, size: PixelSize, isInterlaced: Bool, palette: Range<Int>?, transparentIndex: Int?,
        dataOffset: Int, lzwMinimumCodeSize: Int
    ) {
        self.left = left
        self.top = top
        self.size = size
        self.isInterlaced = isInterlaced
        self.palette = palette
        self.transparentIndex = transparentIndex
        self.dataOffset = dataOffset
        self.lzwMinimumCodeSize = lzwMinimumCodeSize
    }
}
