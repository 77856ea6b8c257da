import ShrinkCore

/// Y, Cb and Cr planes of a progressive JPEG at 1/8 from its DC scans alone (``DCFirstDecoder/decodeDCPlanes``):
/// each block's DC value is its 8×8 average, so luma comes out at 1/8 and 4:2:0 chroma at 1/16 — the half-size
/// chroma a YUV 4:2:0 thumbnail needs — and no AC scan is entropy-decoded. The planes are decoded at the first
/// ``readGroup(_:)``, which hands them all out.
///
/// Memory: the DC values (2 bytes per block) while decoding, then the planes (1 byte per block).
final class JPEGDCPlaneDecoder: PlaneDecoding {
    let planeSizes: [PixelSize]
    let factors: [(x: Double, y: Double)]
    private(set) var nextRows: [Int]
    private(set) var warnings: [String] = []

    private let bytes: ImageBytes
    private let decoder: DCFirstDecoder
    private let strict: Bool
    private let monitor: DecodeMonitor?
    private var done = false

    init(bytes: ImageBytes, decoder: DCFirstDecoder, strict: Bool, monitor: DecodeMonitor?) {
        self.bytes = bytes
        self.decoder = decoder
        self.strict = strict
        self.monitor = monitor
        planeSizes = decoder.dcPlaneSizes
        factors = decoder.dcPlaneFactors
        nextRows = [Int](repeating: 0, count: planeSizes.count)
    }

    func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool {
        guard !done else { return false }
        done = true
        let bytes = self.bytes
        let planes = try decoder.decodeDCPlanes(
            bytes: bytes.bytes, strict: strict, monitor: monitor, warnings: &warnings,
            release: { bytes.releaseResidentPages(in: $0) })
        bytes.releaseResidentPages()
        for (i, plane) in planes.enumerated() {
            let size = planeSizes[i]
            plane.withUnsafeBufferPointer { p in
                for y in 0..<size.height { body(i, y, p.baseAddress! + y * size.width) }
            }
            nextRows[i] = size.height
        }
        return true
    }

    func finish() throws(ImageError) { done = true }
}
