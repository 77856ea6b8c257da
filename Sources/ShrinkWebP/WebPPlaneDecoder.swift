import ShrinkCore

/// The Y, U and V planes of a lossy WebP frame decoded by libwebp (4:2:0, chroma at half size rounded up),
/// handed out 16 luma rows and 8 chroma rows at a time and widened from VP8's limited range to the full range
/// of Shrink's yuv420 (``VideoRange``). Costs the frame (``WebPFrame``, released by ``finish()``) and one row.
final class WebPPlaneDecoder: PlaneDecoding {
    let planeSizes: [PixelSize]
    let factors: [(x: Double, y: Double)] = [(1, 1), (0.5, 0.5), (0.5, 0.5)]
    private(set) var nextRows = [0, 0, 0]
    let warnings: [String] = []
    private var frame: WebPFrame?
    private let path: String
    private var row: [UInt8]

    init(frame: WebPFrame, path: String) {
        self.frame = frame
        self.path = path
        let chroma = WebPFrame.planeLayout(frame.size).chroma
        planeSizes = [frame.size, chroma, chroma]
        row = [UInt8](repeating: 0, count: frame.size.width)
    }

    func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool {
        guard let frame else { throw ImageError(.invalidArgument, "\(path): decoder already finished") }
        guard nextRows[0] < planeSizes[0].height else { return false }
        let base = UnsafePointer(frame.buffer.assumingMemoryBound(to: UInt8.self))
        var offset = 0
        for plane in 0..<3 {
            let size = planeSizes[plane]
            let end = min(size.height, nextRows[plane] + (plane == 0 ? 16 : 8))
            row.withUnsafeMutableBufferPointer { out in
                for y in nextRows[plane]..<end {
                    VideoRange.widen(
                        base + offset + y * size.width, count: size.width, chroma: plane > 0, into: out.baseAddress!)
                    body(plane, y, UnsafePointer(out.baseAddress!))
                }
            }
            nextRows[plane] = end
            offset += size.pixelCount
        }
        return true
    }

    func finish() throws(ImageError) { frame = nil }
}
