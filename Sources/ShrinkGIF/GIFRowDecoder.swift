import ShrinkCore

/// One running decode of a GIF's first frame, handing out canvas rows of ``GIFDecoder/outputFormat`` strictly top to
/// bottom.
///
/// The frame's LZW data is read (``GIFLZWLines``: Shrink's LZW decoder) one frame row at a time into a line buffer of the frame's width, expanded through the ``GIFColorTable`` into the caller's
/// row; rows and columns of the canvas outside the frame are the fill colour (the transparent index, else index
/// 0). An interlaced frame is decoded whole when the decode starts, its indices held (1 byte per frame pixel).
///
/// Memory: the LZW decoder's state and the colour table (``GIFDecoder/stateBytes``), one line or the interlaced indices.
///
/// Damage in the first frame — data that ends before its last pixel, an invalid LZW code, a minimum code size
/// above 11 — is an error (`.truncated` or `.corruptData`), as in Pillow and libvips: rows the file does not
/// have are not made up. Damage after the frame's last pixel is never read. What ``GIFStructure`` stepped over
/// (the file ending in a later frame, stray bytes) is in the image's warnings; with `DecodeOptions.strict` the
/// decode refuses to start instead (`.truncated` when the file is cut, else `.corruptData`).
final class GIFRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0

    private let path: String
    private let frame: GIFFrame
    private let channels: Int
    private var lines: GIFLZWLines?
    /// 256 RGBA entries, then the fill pixel (4 bytes).
    private let table: UnsafeMutablePointer<UInt8>
    /// One frame row (streaming) or the whole frame's indices (interlaced).
    private let indices: UnsafeMutablePointer<UInt8>
    private var isOpen = true
    /// False when the frame's LZW minimum code size is 0: no decoder is started and the frame reads as index 0.
    private let decodesLZW: Bool

    init(decoder: GIFDecoder, options: DecodeOptions, monitor: DecodeMonitor?) throws(ImageError) {
        let structure = decoder.structure
        path = decoder.path
        frame = structure.firstFrame
        size = structure.canvas
        format = decoder.outputFormat
        channels = format.channels
        if options.strict, let first = structure.warnings.first {
            throw ImageError(
                structure.isTruncated ? .truncated : .corruptData, "\(decoder.path): \(first) (strict decoding)")
        }
        if options.memoryLimit > 0 {
            try ImageLimits.check(
                workingBytes: decoder.workingBytes, limit: options.memoryLimit, for: "the interlaced GIF frame",
                path: decoder.path)
        }
        let colors = GIFColorTable(bytes: decoder.bytes, frame: frame)
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 1028)
        colors.rgba.withUnsafeBufferPointer { table.initialize(from: $0.baseAddress!, count: 1024) }
        (table + 1024).initialize(from: table + (frame.transparentIndex ?? 0) * 4, count: 4)
        self.table = table
        let capacity = frame.isInterlaced && frame.lzwMinimumCodeSize != 0 ? frame.size.pixelCount : frame.size.width
        indices = .allocate(capacity: capacity)
        decodesLZW = frame.lzwMinimumCodeSize != 0
        // Everything is initialised: from here a failure releases the handle and buffers in deinit.
        guard decodesLZW else {
            // Minimum code size 0: no code table fits, so nothing is decoded (libvips leaves such a frame empty,
            // Pillow reads 1-bit codes that can only mean index 0 or clear). The rows read as index 0; the
            // structure's warnings say so.
            indices.initialize(repeating: 0, count: capacity)
            return
        }
        let lines = try GIFLZWLines(bytes: decoder.bytes, frame: frame, path: path, name: "the first frame")
        self.lines = lines
        if frame.isInterlaced { try decodeInterlaced(lines, monitor: monitor) }
    }

    deinit {
        close()
        table.deallocate()
        indices.deallocate()
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: isOpen, path: path)
        guard count > 0 else { return 0 }
        let width = frame.size.width, c = channels
        let right = size.width - frame.left - width
        for i in 0..<count {
            let out = (buffer + i * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let r = nextRow - frame.top
            if r < 0 || r >= frame.size.height {
                Self.fill(out, with: table + 1024, channels: c, count: size.width)
            } else {
                let source: UnsafePointer<UInt8>
                if frame.isInterlaced {
                    source = UnsafePointer(indices + (decodesLZW ? r * width : 0))
                } else if !decodesLZW {
                    source = UnsafePointer(indices)
                } else {
                    guard let lines else {
                        throw ImageError(.invalidArgument, "\(path): the GIF decode has finished")
                    }
                    try lines.read(into: indices, count: width, row: "row \(r) of the first frame")
                    source = UnsafePointer(indices)
                }
                Self.fill(out, with: table + 1024, channels: c, count: frame.left)
                Self.expand(source, count: width, colors: table, channels: c, into: out + frame.left * c)
                Self.fill(out + (frame.left + width) * c, with: table + 1024, channels: c, count: right)
            }
            nextRow += 1
        }
        return count
    }

    func finish() throws(ImageError) {
        isOpen = false
        close()
    }

    private func close() { lines = nil }

    /// Decodes the four interlace passes (rows 0, 4, 2, 1 mod 8) into the frame's index buffer; stops with
    /// `.cancelled` within 64 rows of `monitor` being cancelled.
    private func decodeInterlaced(_ lines: GIFLZWLines, monitor: DecodeMonitor?) throws(ImageError) {
        let width = frame.size.width, height = frame.size.height
        var decoded = 0
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            var r = start
            while r < height {
                try lines.read(into: indices + r * width, count: width, row: "row \(r) of the interlaced first frame")
                decoded += 1
                if decoded & 63 == 0, monitor?.isCancelled == true {
                    throw ImageError(.cancelled, "\(path): decode cancelled in the interlaced first frame")
                }
                r += step
            }
        }
    }

    // MARK: Pixel loops

    /// Writes `count` pixels of `indices` through `colors` (256 RGBA entries) as `channels`-byte pixels.
    static func expand(
        _ indices: UnsafePointer<UInt8>, count: Int, colors: UnsafePointer<UInt8>, channels: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        if channels == 4 {
            let raw = UnsafeMutableRawPointer(out), entries = UnsafeRawPointer(colors)
            for i in 0..<count {
                raw.storeBytes(
                    of: entries.loadUnaligned(fromByteOffset: Int(indices[i]) * 4, as: UInt32.self),
                    toByteOffset: i * 4, as: UInt32.self)
            }
        } else {
            for i in 0..<count {
                let p = colors + Int(indices[i]) * 4, o = out + i * channels
                o[0] = p[0]
                o[1] = p[1]
                o[2] = p[2]
            }
        }
    }

    /// Writes `count` copies of `pixel` (`channels` bytes) from `out`.
    static func fill(_ out: UnsafeMutablePointer<UInt8>, with pixel: UnsafePointer<UInt8>, channels: Int, count: Int) {
        guard count > 0 else { return }
        for i in 0..<count {
            for k in 0..<channels { out[i * channels + k] = pixel[k] }
        }
    }
}
