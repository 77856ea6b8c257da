import Shrink

/// A thumbnail request drawn from a fuzz input's parameters: a target of at most 512 × 512 pixels (256 for zero
/// parameters; now and then 0, which must be `.invalidArgument`), quality or fast mode, strict or not,
/// upscaling, the embedded EXIF thumbnail, one of the pixel format requests a harness offers, and now and then
/// helper threads (a grid's tiles decoded on two more threads beside the harness's).
public struct ThumbnailParameters {
    /// The size asked for.
    public var target: ThumbnailTarget
    /// Mode, strictness, pixel format, embedded thumbnails.
    public var options: ThumbnailOptions

    /// Two threads to lend, whatever the harness's own threads do.
    private static let helpers = SpareCores(cores: 2)

    public init(_ input: inout FuzzInput, pixelFormats: [PixelFormatRequest]) {
        let flags = input.byte()
        options = ThumbnailOptions(
            mode: flags & 1 == 0 ? .quality : .fast, allowUpscaling: flags & 2 != 0,
            strict: flags & 4 == 0, pixelFormat: input.pick(pixelFormats),
            useEmbeddedThumbnail: [nil, true, false][Int(flags >> 3) % 3])
        if flags & 0x80 != 0 { options.helpers = Self.helpers }
        // Zero parameters ask for 256 px; 0 (an invalid size) is one value in 513.
        let width = (Int(input.uint16()) + 256) % 513, height = (Int(input.uint16()) + 256) % 513
        switch input.byte() % 5 {
        case 0, 1: target = .maxPixelSize(width)
        case 2: target = .box(PixelSize(width: width, height: height), fit: .inside)
        case 3: target = .box(PixelSize(width: width, height: height), fit: .cover)
        default: target = .prescale(input.pick([1, 2, 4, 8, 3]))
        }
    }
}
