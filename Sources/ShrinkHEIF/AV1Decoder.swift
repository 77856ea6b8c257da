import CShrinkDav1d
import Glibc
import ShrinkCore

/// A dav1d decoder reused across the tiles of one image: each ``decode(_:)`` sends one item's OBUs and takes
/// the picture dav1d makes of them (8-bit planes are not copied: the ``HEIFPicture`` holds dav1d's reference),
/// then flushes the decoder for the next tile. One
/// thread, no frame delay, film grain applied (as libavif does), frames above `maxPixels` refused by dav1d
/// itself. dav1d holds one picture of the tile's size and its per-frame state while it decodes.
final class AV1Decoder {
    private let context: OpaquePointer
    private let path: String
    private let maxPixels: Int
    /// `dav1d` and its version.
    static let name = "dav1d " + String(cString: shrink_dav1d_version())

    /// A decoder that refuses frames of more than `maxPixels`. Fails with `.unsupportedFeature` when dav1d
    /// cannot be loaded (it is loaded on first use, not linked), `.outOfMemory` when it cannot be opened.
    init(maxPixels: Int, path: String) throws(ImageError) {
        guard shrink_dav1d_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(path): AV1-coded images need dav1d", debian: "libdav1d6", reason: shrink_dav1d_load_error())
        }
        var settings = Dav1dSettings()
        shrink_dav1d_default_settings(&settings)
        settings.n_threads = 1
        settings.max_frame_delay = 1
        settings.frame_size_limit = UInt32(clamping: max(1, maxPixels))
        settings.all_layers = 0 // the highest spatial layer only, as libavif asks
        settings.logger.callback = nil // no messages on stderr: errors come back as codes
        var context: OpaquePointer?
        guard shrink_dav1d_open(&context, &settings) == 0, let context else {
            throw ImageError(.outOfMemory, "\(path): cannot create an AV1 decoder")
        }
        self.context = context
        self.path = path
        self.maxPixels = maxPixels
    }

    /// Closes dav1d, then hands the freed memory of a large frame back to the system: glibc raises its mmap threshold
    /// after the first large free, so later frames' buffers come from the heap and stay resident, fragmented, once
    /// freed, and a batch's resident memory keeps growing without this (BENCHMARKS.md, "Figures behind the code").
    deinit {
        var c: OpaquePointer? = context
        shrink_dav1d_close(&c)
        if maxPixels >= 1 << 20 { HeapUsage.returnFreeMemory() }
    }

    /// Decodes one picture from `data` (an item's OBUs). Fails with `.corruptData` when dav1d reports an error
    /// or the data holds no picture.
    func decode(_ data: UnsafeRawBufferPointer, depth: HEIFSampleDepth = .narrowed(fullRange: nil)) throws(ImageError)
        -> HEIFPicture
    {
        defer { shrink_dav1d_flush(context) }
        guard let base = data.baseAddress, data.count > 0 else {
            throw ImageError(.corruptData, "\(path): an AV1 item without data")
        }
        var input = Dav1dData()
        // The bytes stay ours (they outlive the flush above): nothing for dav1d to free.
        guard
            shrink_dav1d_data_wrap(&input, base.assumingMemoryBound(to: UInt8.self), data.count, { _, _ in }, nil) == 0
        else {
            throw ImageError(.outOfMemory, "\(path): cannot hand the AV1 data to dav1d")
        }
        defer { shrink_dav1d_data_unref(&input) }
        var picture = Dav1dPicture()
        var steps = 0
        while true {
            steps += 1
            guard steps < 10_000 else { throw ImageError(.corruptData, "\(path): AV1 decoding does not end") }
            if input.sz > 0 {
                let sent = shrink_dav1d_send_data(context, &input)
                if sent == -ERANGE {
                    throw ImageError(.corruptData, "\(path): an AV1 frame larger than its item's declared size")
                }
                if sent < 0 && sent != -EAGAIN { throw error(sent, "reading the coded data") }
            }
            let got = shrink_dav1d_get_picture(context, &picture)
            if got == 0 { break }
            if got == -ERANGE {
                throw ImageError(.corruptData, "\(path): an AV1 frame larger than its item's declared size")
            }
            if got != -EAGAIN { throw error(got, "decoding a tile") }
            if input.sz == 0 { throw ImageError(.corruptData, "\(path): the AV1 data holds no complete picture") }
        }
        return Self.picture(picture, depth: depth)
    }

    /// `p` as a ``HEIFPicture``: planes as dav1d made them (unreferenced when the picture goes): 8-bit ones,
    /// and deeper ones when they are `.kept`; else deeper ones copied rounded to 8 bits.
    private static func picture(_ p: Dav1dPicture, depth samples: HEIFSampleDepth) -> HEIFPicture {
        var p = p
        let layout = p.p.layout
        let planes = layout == DAV1D_PIXEL_LAYOUT_I400 ? 1 : 3
        let (sx, sy) = layout == DAV1D_PIXEL_LAYOUT_I420 ? (1, 1) : layout == DAV1D_PIXEL_LAYOUT_I422 ? (1, 0) : (0, 0)
        let depth = Int(p.p.bpc)
        var sizes: [PixelSize] = [], bases: [UnsafeRawPointer] = [], strides: [Int] = []
        for c in 0..<planes {
            let w = c == 0 ? Int(p.p.w) : (Int(p.p.w) + sx) >> sx
            let h = c == 0 ? Int(p.p.h) : (Int(p.p.h) + sy) >> sy
            guard w > 0, h > 0, let base = c == 0 ? p.data.0 : c == 1 ? p.data.1 : p.data.2 else { continue }
            sizes.append(PixelSize(width: w, height: h))
            bases.append(UnsafeRawPointer(base))
            strides.append(Int(c == 0 ? p.stride.0 : p.stride.1))
        }
        let header = p.seq_hdr?.pointee
        let fullRange = (header?.color_range ?? 1) != 0, matrix = Int(header?.mtrx.rawValue ?? 2)
        guard depth <= 8 || samples == .kept else {
            defer { shrink_dav1d_picture_unref(&p) }
            return HEIFPicture(
                copying: bases, strides: strides, sizes: sizes, bitDepth: depth, depth: samples,
                fullRange: fullRange, matrix: matrix)
        }
        return HEIFPicture(
            sizes: sizes, planes: bases.map { $0.assumingMemoryBound(to: UInt8.self) }, strides: strides,
            bitDepth: depth, sampleBytes: depth > 8 ? 2 : 1, fullRange: fullRange, matrix: matrix,
            release: { shrink_dav1d_picture_unref(&p) })
    }

    /// The colour the sequence header among `obus` (the start of an item's data) signals — primaries, transfer,
    /// matrix, full range — or nil when there is none whole. dav1d parses just that OBU: handed a cut-off one
    /// after it, it would refuse the lot.
    static func color(_ obus: [UInt8]) -> (Int, Int, Int, Bool)? {
        var i = 0
        while i < obus.count {
            let header = Int(obus[i]), type = header >> 3 & 0xF, extended = header & 4 != 0
            guard header & 2 != 0 else { return nil } // without a size field the OBU runs to the end
            var j = i + 1 + (extended ? 1 : 0), size = 0
            for k in 0..<8 { // leb128
                guard j < obus.count else { return nil }
                let byte = Int(obus[j])
                j += 1
                size |= (byte & 0x7F) << (7 * k)
                if byte & 0x80 == 0 { break }
            }
            guard size <= obus.count - j else { return nil }
            if type == 1 {
                var sequence = Dav1dSequenceHeader()
                let parsed = obus[i..<j + size].withUnsafeBufferPointer {
                    shrink_dav1d_parse_sequence_header(&sequence, $0.baseAddress, $0.count)
                }
                guard parsed == 0 else { return nil }
                return (
                    Int(sequence.pri.rawValue), Int(sequence.trc.rawValue), Int(sequence.mtrx.rawValue),
                    sequence.color_range != 0
                )
            }
            i = j + size
        }
        return nil
    }

    private func error(_ code: Int32, _ during: String) -> ImageError {
        let text = String(cString: strerror(-code))
        return ImageError(.corruptData, "\(path): AV1 \(text) (\(during))")
    }
}
