import ShrinkCore

/// The canvas a GIF animation is composited on, at full size in 1 byte a pixel: each byte indexes the canvas's own
/// palette of up to 256 RGBA colours (slot 0 is transparent), into which each frame's colours are entered as its
/// pixels are drawn. It starts as the still image's first frame shows outside the frame (its transparent index,
/// else its colour 0: what Pillow shows, and what ``GIFRowDecoder`` gives). Frames with local colour tables bring new colours; when the palette is full, colours no pixel
/// uses any more are freed (one scan of the canvas), and only when the canvas really shows more than 255 colours at
/// once does it widen to 4 bytes a pixel (RGBA) for the rest of the animation. Compositing is exact either way: a
/// frame's opaque pixels replace the canvas's, its transparent index leaves them, disposal clears a rectangle to
/// transparent (as browsers do) or restores what was under it.
///
/// Memory: the canvas (1 byte a pixel; 4 once widened), the rectangle saved for a frame disposed of by restoring
/// (as many pixels as the frame), 1 KiB of palette and 512 bytes of mapping.
final class GIFCanvas {
    /// The canvas size.
    let size: PixelSize
    /// Palette indices, 1 byte a pixel (nil once widened).
    private var indices: UnsafeMutablePointer<UInt8>?
    /// RGBA pixels, once widened.
    private var wide: UnsafeMutablePointer<UInt32>?
    /// 256 RGBA colours as little-endian words; slot 0 is transparent black.
    private let palette: UnsafeMutablePointer<UInt32>
    /// Slots in use (slot 0 always).
    private var used = [Bool](repeating: false, count: 256)
    /// Slot of each colour on the palette.
    private var slots: [UInt32: UInt8] = [:]
    /// The current frame's colours (256 RGBA words) and, per index, its slot (0xFFFF until first drawn).
    private var frameColors = [UInt32](repeating: 0, count: 256)
    private var mapping = [UInt16](repeating: 0xFFFF, count: 256)
    /// The rectangle under the current frame, kept when it is disposed of by restoring.
    private var saved: (rect: (x: Int, y: Int, width: Int, height: Int), bytes: [UInt32])?

    /// A canvas of `size` filled with `fill` (an RGBA word; 0 is transparent).
    init(size: PixelSize, fill: UInt32) {
        self.size = size
        palette = .allocate(capacity: 256)
        palette.initialize(repeating: 0, count: 256)
        used[0] = true
        var slot: UInt8 = 0
        if fill != 0 {
            slot = 1
            used[1] = true
            palette[1] = fill
            slots[fill] = 1
        }
        indices = .allocate(capacity: size.pixelCount)
        indices!.initialize(repeating: slot, count: size.pixelCount)
    }

    deinit {
        indices?.deallocate()
        wide?.deallocate()
        palette.deallocate()
    }

    /// Starts a frame whose colours are `rgba` (256 entries of 4 bytes, as ``GIFColorTable`` gives them).
    func beginFrame(colors rgba: [UInt8]) {
        rgba.withUnsafeBytes { raw in
            for i in 0..<256 { frameColors[i] = raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self) }
        }
        for i in 0..<256 { mapping[i] = 0xFFFF }
    }

    /// `rect` clipped to the canvas.
    func clip(_ rect: (x: Int, y: Int, width: Int, height: Int)) -> (x: Int, y: Int, width: Int, height: Int) {
        let x0 = max(0, min(rect.x, size.width)), y0 = max(0, min(rect.y, size.height))
        let x1 = max(x0, min(rect.x + rect.width, size.width)), y1 = max(y0, min(rect.y + rect.height, size.height))
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Keeps what is under `rect` (clipped), to be put back by ``restore()``.
    func save(_ rect: (x: Int, y: Int, width: Int, height: Int)) {
        let r = clip(rect)
        var bytes = [UInt32](repeating: 0, count: r.width * r.height)
        for row in 0..<r.height {
            for col in 0..<r.width { bytes[row * r.width + col] = pixel(x: r.x + col, y: r.y + row) }
        }
        saved = (r, bytes)
    }

    /// Puts back what ``save(_:)`` kept.
    func restore() {
        guard let (r, bytes) = saved else { return }
        saved = nil
        for row in 0..<r.height {
            for col in 0..<r.width { set(x: r.x + col, y: r.y + row, to: bytes[row * r.width + col]) }
        }
    }

    /// Clears `rect` (clipped) to transparent.
    func clear(_ rect: (x: Int, y: Int, width: Int, height: Int)) {
        let r = clip(rect)
        for y in r.y..<r.y + r.height {
            if let indices {
                (indices + y * size.width + r.x).update(repeating: 0, count: r.width)
            } else if let wide {
                (wide + y * size.width + r.x).update(repeating: 0, count: r.width)
            }
        }
    }

    /// Draws one row of a frame: `count` indices at (`x`, `y`) on the canvas (already clipped by the caller),
    /// skipping `transparent`.
    func draw(_ row: UnsafePointer<UInt8>, count: Int, x: Int, y: Int, transparent: Int?) {
        let t = transparent ?? -1
        if let indices {
            let out = indices + y * size.width + x
            var i = 0
            while i < count {
                let index = Int(row[i])
                if index != t {
                    var slot = mapping[index]
                    if slot == 0xFFFF {
                        guard let entered = enter(index) else {
                            widen()
                            return draw(row + i, count: count - i, x: x + i, y: y, transparent: transparent)
                        }
                        slot = entered
                    }
                    out[i] = UInt8(truncatingIfNeeded: slot)
                }
                i += 1
            }
        } else if let wide {
            let out = wide + y * size.width + x
            for i in 0..<count where Int(row[i]) != t { out[i] = frameColors[Int(row[i])] }
        }
    }

    /// Writes row `y` as rgba8 (transparent once the canvas is released).
    func readRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>) {
        let out = UnsafeMutableRawPointer(row)
        if let indices {
            let line = indices + y * size.width
            for x in 0..<size.width { out.storeBytes(of: palette[Int(line[x])], toByteOffset: x * 4, as: UInt32.self) }
        } else if let wide {
            out.copyMemory(from: wide + y * size.width, byteCount: size.width * 4)
        } else {
            out.initializeMemory(as: UInt8.self, repeating: 0, count: size.width * 4)
        }
    }

    /// Frees the pixels (and a saved rectangle) once no frame follows, so that what comes after the last frame (an
    /// encoder assembling its file) does not share the peak with them.
    func release() {
        indices?.deallocate()
        indices = nil
        wide?.deallocate()
        wide = nil
        saved = nil
    }

    // MARK: Palette

    /// The slot of the current frame's colour `index`, entered on the palette if new; nil when the palette is full
    /// of colours the canvas still shows.
    private func enter(_ index: Int) -> UInt16? {
        guard let slot = slot(for: frameColors[index]) else { return nil }
        mapping[index] = UInt16(slot)
        return UInt16(slot)
    }

    /// The slot of RGBA `color`, entered on the palette if new; nil when the palette is full of colours the canvas
    /// still shows.
    private func slot(for color: UInt32) -> UInt8? {
        if let slot = slots[color] { return slot }
        guard let free = used.firstIndex(of: false) ?? compact() else { return nil }
        used[free] = true
        palette[free] = color
        slots[color] = UInt8(free)
        return UInt8(free)
    }

    /// Frees the slots no pixel of the canvas uses nor the current frame's mapping (the saved rectangle holds colours,
    /// not slots); returns a free slot, or nil when there is none.
    private func compact() -> Int? {
        guard let indices else { return nil }
        var seen = [Bool](repeating: false, count: 256)
        seen[0] = true
        for i in 0..<size.pixelCount { seen[Int(indices[i])] = true }
        for slot in mapping where slot != 0xFFFF { seen[Int(slot)] = true }
        for s in 1..<256 where used[s] && !seen[s] {
            used[s] = false
            slots[palette[s]] = nil
        }
        return used.firstIndex(of: false)
    }

    /// Turns the canvas into RGBA (4 bytes a pixel) for the rest of the animation.
    private func widen() {
        guard let indices else { return }
        let wide = UnsafeMutablePointer<UInt32>.allocate(capacity: size.pixelCount)
        for i in 0..<size.pixelCount { wide[i] = palette[Int(indices[i])] }
        indices.deallocate()
        self.indices = nil
        self.wide = wide
    }

    private func pixel(x: Int, y: Int) -> UInt32 {
        if let indices { return palette[Int(indices[y * size.width + x])] }
        return wide![y * size.width + x]
    }

    /// Sets a pixel to an RGBA colour (entering it on the palette, widening when it is full).
    private func set(x: Int, y: Int, to color: UInt32) {
        if let indices {
            if let slot = color == 0 ? slots[color] ?? 0 : slot(for: color) {
                indices[y * size.width + x] = slot
                return
            }
            widen()
        }
        wide![y * size.width + x] = color
    }
}
