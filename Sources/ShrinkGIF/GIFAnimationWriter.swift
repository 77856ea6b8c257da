import CShrinkCGIF
import ShrinkCore

/// One GIF being written with cgif. Each frame is quantised to a colour table of its own (``GIFQuantizer``): the
/// first frame's table is the file's global table, a later frame carries a local one when its table differs. In an
/// animation, cgif codes each frame after the first as the rectangle that changed, with the pixels inside it that did
/// not change made transparent, unless the frame has transparency of its own (then the frame before is disposed of to
/// the background and the frame is coded whole). The first frame of an animation always has a transparent index, so
/// that the area of a frame disposed of to the background is transparent in every reader, not only in browsers. A still
/// is the same writer with one frame.
///
/// A frame whose pixels are those of the frame before is merged into it, their durations summed (so each frame is
/// held back until the next is quantised). Durations are GIF's hundredths of a second: milliseconds rounded to the
/// nearest 10, 0 kept 0. The loop count is the NETSCAPE extension's; an animation that plays once has none.
///
/// Memory: the quantiser's tables, two frames of indices (a byte a pixel each), cgif's copies of the last three
/// frames and the file so far.
final class GIFAnimationWriter: AnimationWriting {
    private var gif: OpaquePointer?
    /// The file so far (cgif appends to it through the write callback ``start(table:)`` sets).
    private var bytes: [UInt8] = []
    private let size: PixelSize
    private let animated: Bool
    private let loopCount: Int
    private let dither: Bool
    private let quantizer = GIFQuantizer()
    /// The frame being quantised, and the one held back until the next shows whether it changed anything.
    private var indices: [UInt8]
    private var pendingIndices: [UInt8]
    private var pending: (palette: GIFPalette, milliseconds: Int)?
    private var globalTable: [UInt8] = []
    /// Frames handed to cgif.
    private var frames = 0

    /// A writer of `size` frames; `animated` writes the animation extensions (`loopCount` plays, 0 forever);
    /// `dither` diffuses each frame's quantisation error.
    init(size: PixelSize, animated: Bool, loopCount: Int, dither: Bool) throws(ImageError) {
        guard (1...65535).contains(size.width), (1...65535).contains(size.height) else {
            throw ImageError(.invalidArgument, "GIF images are 1-65535 pixels on a side, not \(size)")
        }
        // cgif is loaded on first use: before any frame is quantised.
        try CGIFLibrary.load()
        self.size = size
        self.animated = animated
        self.loopCount = loopCount
        self.dither = dither
        indices = [UInt8](repeating: 0, count: size.pixelCount)
        pendingIndices = indices
    }

    deinit {
        if let gif { cgif_close(gif) }
    }

    func add(_ frame: PixelBuffer, durationMilliseconds: Int) throws(ImageError) {
        guard frame.size == size else {
            throw ImageError(.invalidArgument, "an animation frame is \(frame.size), the animation \(size)")
        }
        guard animated || (frames == 0 && pending == nil) else {
            throw ImageError(.invalidArgument, "a still GIF has one frame")
        }
        let rgba = frame.format == .rgba8 ? frame : PixelConverter.convert(frame, to: .rgba8)
        let width = size.width, dither = dither, quantizer = quantizer
        let palette = rgba.bytes.withUnsafeBufferPointer { p in
            indices.withUnsafeMutableBufferPointer { quantizer.quantize(p, width: width, dither: dither, into: $0) }
        }
        let milliseconds = max(0, durationMilliseconds)
        if let held = pending, held.palette == palette, pendingIndices == indices {
            // The same pixels as the frame before: one frame, shown for both durations.
            pending?.milliseconds += milliseconds
            return
        }
        try flush()
        swap(&indices, &pendingIndices)
        pending = (palette, milliseconds)
    }

    func finish() throws(ImageError) -> [UInt8] {
        try flush()
        guard let gif, frames > 0 else { throw ImageError(.invalidArgument, "a GIF needs at least one frame") }
        self.gif = nil
        let result = cgif_close(gif)
        guard result == CGIF_OK.rawValue else { throw Self.failure(result) }
        return bytes
    }

    /// Hands the held frame to cgif (starting the file with the first).
    private func flush() throws(ImageError) {
        guard let (held, milliseconds) = pending else { return }
        var palette = held
        pending = nil
        if animated && frames == 0 && palette.transparentIndex == nil {
            // A transparent index, unused: where a later frame disposes of this one to the background, readers that
            // follow the letter of GIF89a (Pillow, libnsgif) then clear to transparent, as browsers do, instead of
            // painting the background colour.
            palette.transparentIndex = palette.count
            palette.rgb += [0, 0, 0]
        }
        if gif == nil { try start(table: palette.rgb) }
        var table = palette.rgb
        let local = table != globalTable
        let result = pendingIndices.withUnsafeMutableBufferPointer { image in
            table.withUnsafeMutableBufferPointer { table in
                var config = CGIF_FrameConfig()
                config.pImageData = image.baseAddress
                config.delay = UInt16(clamping: (milliseconds + 5) / 10)
                if local {
                    config.attrFlags |= UInt32(CGIF_FRAME_ATTR_USE_LOCAL_TABLE)
                    config.pLocalPalette = table.baseAddress
                    config.numLocalPaletteEntries = UInt16(palette.count)
                }
                if let t = palette.transparentIndex {
                    config.attrFlags |= UInt32(CGIF_FRAME_ATTR_HAS_ALPHA)
                    config.transIndex = UInt8(t)
                }
                if animated {
                    config.genFlags = UInt32(CGIF_FRAME_GEN_USE_TRANSPARENCY | CGIF_FRAME_GEN_USE_DIFF_WINDOW)
                }
                return cgif_addframe(gif, &config)
            }
        }
        guard result == CGIF_OK.rawValue else { throw Self.failure(result) }
        frames += 1
    }

    /// Starts the file with `table` as its global colour table (cgif writes the header at once).
    private func start(table: [UInt8]) throws(ImageError) {
        globalTable = table
        var config = CGIF_Config()
        config.width = UInt16(size.width)
        config.height = UInt16(size.height)
        config.numGlobalPaletteEntries = UInt16(table.count / 3)
        // cgif writes a frame's graphic control extension (its transparent index) only in "animated" files: a still
        // is one of one frame and no loop extension.
        config.attrFlags = UInt32(CGIF_ATTR_IS_ANIMATED)
        if !animated || loopCount == 1 { config.attrFlags |= UInt32(CGIF_ATTR_NO_LOOP) }
        config.numLoops = UInt16(clamping: loopCount)
        config.pWriteFn = { context, data, count in
            guard let context, let data else { return -1 }
            let writer = Unmanaged<GIFAnimationWriter>.fromOpaque(context).takeUnretainedValue()
            writer.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
            return 0
        }
        config.pContext = Unmanaged.passUnretained(self).toOpaque()
        gif = globalTable.withUnsafeMutableBufferPointer { t in
            config.pGlobalPalette = t.baseAddress
            return cgif_newgif(&config)
        }
        guard gif != nil else { throw ImageError(.outOfMemory, "cgif could not start a GIF") }
    }

    private static func failure(_ result: Int32) -> ImageError {
        result == CGIF_EALLOC.rawValue
            ? ImageError(.outOfMemory, "cgif could not allocate memory for a GIF frame")
            : ImageError(.encodingFailed, "cgif could not write the GIF (error \(result))")
    }
}
