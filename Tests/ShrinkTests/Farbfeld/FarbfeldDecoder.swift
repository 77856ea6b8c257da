import Shrink

/// A farbfeld file opened for decoding: one route, 16-bit rows streamed at full size from the file's bytes.
final class FarbfeldDecoder: ImageDecoding {
    static let magic = Array("farbfeld".utf8)
    let info: ImageInfo
    let scaleDenominators = [1]
    let outputFormat = PixelFormat.rgba8
    private let bytes: ImageBytes
    private let name: String

    init(bytes: ImageBytes, name: String, limits: ImageLimits) throws(ImageError) {
        let b = bytes.bytes
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(b[at + $1]) } }
        let size = PixelSize(width: u32(8), height: u32(12))
        try limits.check(size, path: name)
        guard b.count - 16 >= size.pixelCount * 8 else {
            throw ImageError(.truncated, "\(name): farbfeld data ends before \(size)", name: name)
        }
        self.bytes = bytes
        self.name = name
        info = ImageInfo(format: .farbfeld, size: size, colorModel: .rgba, bitsPerComponent: 16, hasAlpha: true)
    }

    func scaledSize(denominator: Int) -> PixelSize { info.size }
    func metadata() throws(ImageError) -> ImageMetadata { ImageMetadata() }

    func route(_ request: RouteRequest) -> DecodeRoute {
        let bytes = bytes, name = name, size = info.size
        return DecodeRoute(
            path: .rows, output: .rows(.rgba16), decodedSize: size, workingBytes: 0, stateBytes: 0,
            decoder: "farbfeld (test)"
        ) { _, _ in .rows(FarbfeldRowDecoder(bytes: bytes, size: size, name: name)) }
    }
}
