import ShrinkCore

/// Turns RGB rows, arriving top to bottom in stored orientation, into oriented yuv420 or nv12 planes as they
/// come: luma row by row, chroma from each 2×2 block once its second row arrives. Blocks are paired so that
/// they match the displayed image's 2×2 grid after orientation (an axis that orientation reverses pairs
/// from its far end when its length is odd), so the result equals converting the oriented RGB image.
///
/// Memory: one RGB row held for its pair, one luma row and one chroma row of scratch.
final class YUVRowSink {
    private let storedSize: PixelSize
    private let lumaWriter: OrientedWriter
    private let chromaWriter: OrientedWriter
    private let nv12: Bool
    private let matrix: PixelConverter.Matrix
    /// 1 when stored column (row) 0 forms a chroma block on its own.
    private let offsetX: Int
    private let offsetY: Int
    private var pending: [UInt8]
    private var hasPending = false
    private var luma: [UInt8]
    private var chroma: [UInt8]
    private var chromaWidth: Int { (storedSize.width + 1) / 2 }

    init(
        destination: UnsafeMutablePointer<UInt8>, format: PixelFormat, displayedSize: PixelSize,
        orientation: ImageOrientation,
        matrix: PixelConverter.Matrix = .bt601
    ) {
        let stored = orientation.storedSize(of: displayedSize)
        storedSize = stored
        nv12 = format == .nv12
        self.matrix = matrix
        let planes = format.planes(for: displayedSize)
        let storedChroma = PixelSize(width: (stored.width + 1) / 2, height: (stored.height + 1) / 2)
        lumaWriter = OrientedWriter(destination: destination, storedSize: stored, channels: 1, orientation: orientation)
        chromaWriter = OrientedWriter(
            destination: destination + planes[1].offset, storedSize: storedChroma,
            channels: nv12 ? 2 : 1, orientation: orientation)
        // Does orientation run stored x (y) backwards along its displayed axis?
        let origin = orientation.displayedPosition(x: 0, y: 0, in: stored)
        let stepX = orientation.displayedPosition(x: min(1, stored.width - 1), y: 0, in: stored)
        let stepY = orientation.displayedPosition(x: 0, y: min(1, stored.height - 1), in: stored)
        let reversedX = stepX.x < origin.x || stepX.y < origin.y
        let reversedY = stepY.x < origin.x || stepY.y < origin.y
        offsetX = reversedX && stored.width % 2 == 1 ? 1 : 0
        offsetY = reversedY && stored.height % 2 == 1 ? 1 : 0
        pending = [UInt8](repeating: 0, count: stored.width * 3)
        luma = [UInt8](repeating: 0, count: stored.width)
        chroma = [UInt8](repeating: 0, count: storedChroma.width * 2)
        self.planes = planes
    }

    private let planes: [PixelFormat.Plane]

    /// Takes stored RGB row `y` (`width × 3` bytes).
    func take(_ row: UnsafePointer<UInt8>, y: Int) {
        let w = storedSize.width
        for x in 0..<w { luma[x] = PixelConverter.luma(row[x * 3], row[x * 3 + 1], row[x * 3 + 2], matrix: matrix) }
        luma.withUnsafeBufferPointer { lumaWriter.write(row: $0.baseAddress!, y: y) }
        let firstOfPair = (y + offsetY) % 2 == 0
        if firstOfPair && y < storedSize.height - 1 {
            pending.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: row, count: w * 3) }
            hasPending = true
            return
        }
        pending.withUnsafeBufferPointer { above in
            writeChroma(row, above: hasPending ? above.baseAddress! : nil, chromaRow: (y + offsetY) / 2)
        }
        hasPending = false
    }

    private func writeChroma(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, chromaRow: Int) {
        let w = storedSize.width
        for cx in 0..<chromaWidth {
            let x0 = max(0, cx * 2 - offsetX), x1 = min(w, cx * 2 + 2 - offsetX)
            var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, n: Int32 = 0
            for source in [above, Optional(row)] {
                guard let p = source else { continue }
                for x in x0..<x1 {
                    r &+= Int32(p[x * 3]); g &+= Int32(p[x * 3 + 1]); b &+= Int32(p[x * 3 + 2]); n &+= 1
                }
            }
            let (cb, cr) = PixelConverter.chroma(r: r, g: g, b: b, count: max(n, 1), matrix: matrix)
            chroma[cx * 2] = cb
            chroma[cx * 2 + 1] = cr
        }
        if nv12 {
            chroma.withUnsafeBufferPointer { chromaWriter.write(row: $0.baseAddress!, y: chromaRow) }
            return
        }
        // I420: the Cb row to the Cb plane, the Cr row to the Cr plane (same geometry, one plane further).
        let cbRow = (0..<chromaWidth).map { chroma[$0 * 2] }, crRow = (0..<chromaWidth).map { chroma[$0 * 2 + 1] }
        cbRow.withUnsafeBufferPointer { chromaWriter.write(row: $0.baseAddress!, y: chromaRow) }
        let crWriter = OrientedWriter(
            destination: chromaWriter.destination + (planes[2].offset - planes[1].offset),
            storedSize: chromaWriter.storedSize, channels: 1, orientation: chromaWriter.orientation)
        crRow.withUnsafeBufferPointer { crWriter.write(row: $0.baseAddress!, y: chromaRow) }
    }
}
