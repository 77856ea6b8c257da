import Shrink

/// A binary PPM opened for decoding: its header, and one route — rows streamed at full size from the file's
/// bytes, top to bottom, holding nothing that grows with the image (the planner's resampler reduces them as
/// they come). PPM has no scaling while decoding, no alpha and no metadata.
final class PPMDecoder: ImageDecoding {
    let info: ImageInfo
    let scaleDenominators = [1]
    let outputFormat = PixelFormat.rgb8
    private let file: PPMFile

    /// Reads the header of `bytes` and checks the size against `limits` before anything is allocated.
    init(bytes: ImageBytes, name: String, limits: ImageLimits) throws(ImageError) {
        let header = try PPMHeader(bytes.bytes, name: name)
        try limits.check(header.size, path: name)
        file = PPMFile(bytes: bytes, header: header, name: name)
        info = ImageInfo(
            format: .ppm, size: header.size, colorModel: .rgb, layout: "binary (P6)", orientationSource: "none")
    }

    func scaledSize(denominator: Int) -> PixelSize { info.size }

    func metadata() throws(ImageError) -> ImageMetadata { ImageMetadata() }

    /// Rows at full size, streamed: no working memory, and the state is one row of samples.
    func route(_ request: RouteRequest) -> DecodeRoute {
        let file = file
        return DecodeRoute(
            path: .rows, output: .rows(.rgb8), decodedSize: info.size, workingBytes: 0,
            stateBytes: file.header.size.width * 3, decoder: "PPMCodec"
        ) { _, monitor in .rows(PPMRowDecoder(file, monitor: monitor)) }
    }
}
