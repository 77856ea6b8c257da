import ArgumentParser
import Shrink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `shrink thumbnail INPUT... [--size N | --size WxH] [--fit inside|cover|fill|auto|stretch] [--gravity G] [--mode quality|fast] [--quality Q]
/// [-o PATH] [--jobs N] [--json]`.
struct ThumbnailCommand: ParsableCommand {
    /// The subcommand's name (the fast path matches it without building ``configuration``).
    static let name = "thumbnail"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Make thumbnails (or full-size oriented copies) without decoding the full-size bitmap.",
        discussion: """
            The plan comes from the header: JPEGs decode at 1/2, 1/4 or 1/8 scale where that leaves at least 2× \
            to the Lanczos-3 resampler (quality mode) or straight to the nearest scale (fast mode), rows stream \
            into the resampler, and EXIF orientation is applied once. Without --size the image is decoded at full \
            size, oriented.

            Inputs are \(OutputExtensions.readableNames) (the first frame of an animation), recognised by their \
            bytes. One input with -o ending in \(OutputExtensions.list) writes that file; otherwise -o is a \
            directory (created if missing) that receives NAME.jpg (or another format with --format; inputs sharing a name become \
            NAME-2, NAME-3, …). Without -o, outputs go to the current directory as NAME.thumb.jpg. Batches run on --jobs workers, continue past a bad file, and \
            exit 1 at the end if any failed (2 for usage errors).

            Examples:
              shrink thumbnail photo.jpg --size 400 -o thumb.jpg
              shrink thumbnail photo.jpg --size 300x200 --fit cover -o cover.png
              shrink thumbnail photo.jpg --prescale 1/8 -o eighth.png
              shrink thumbnail photos/*.jpg --size 256 -o thumbs/ --jobs 2 --json
              cat photo.jpg | shrink thumbnail - --size 256 -o thumb.jpg

            Damaged files that other decoders open (corrupt entropy data, damage after the last row, a bad checksum, \
            malformed EXIF) are decoded and reported as warnings on stderr and in --json; --strict makes \
            them errors. Directories, FIFOs, devices and empty files are refused with an error.
            """
    )

    @Argument(
        help:
            "Input images, or directories (the images in them, recognised by extension or content); - reads standard input."
    )
    var inputs: [String]

    @Option(help: "Long side N, or a WxH box. Omit for a full-size (oriented) decode.")
    var size: SizeArgument?

    @Option(
        help: ArgumentHelp(
            "Decode at exactly this DCT scale with no resampling, oriented (JPEG: 1/2, 1/4 or 1/8; also 1): the fastest thumbnail, and what djpeg -scale gives.",
            valueName: "1/N"))
    var prescale: PrescaleArgument?

    @Option(
        help:
            "How the image fills a WxH box: inside (keep aspect, fit in the box), cover (fill the box, cut by --gravity), fill (as cover, but a smaller source keeps its own side), auto (fill when image and box are both landscape or both portrait, else inside) or stretch (exactly the box)."
    )
    var fit: ThumbnailTarget.Fit = ThumbnailJob.defaults.fit

    @Option(
        help: ArgumentHelp(
            "Where cover and fill cut: centre, north, south, east, west, north-east, north-west, south-east, south-west, attention (the window libvips' attention strategy picks: edges, skin, saturation), or X,Y (a focus point, fractions of width and height).",
            valueName: "gravity"))
    var gravity = ThumbnailJob.defaults.gravity

    @Option(help: "quality: leave at least 2x to the Lanczos resampler; fast: prescale to the nearest size.")
    var mode: ThumbnailOptions.Mode = ThumbnailJob.defaults.mode

    @Flag(
        inversion: .prefixedNo,
        help:
            "Decode the thumbnail embedded in the file instead of the image when it is at least --size with the image's aspect ratio: a JPEG's EXIF thumbnail or a HEIC/AVIF thmb image whose orientation and colour match the photo's (default: on with --mode fast, off with --mode quality)."
    )
    var embeddedThumbnail: Bool?

    @Option(
        help:
            "Pixel format held in memory: auto (what the output takes: yuv420 for opaque colour written as 4:2:0 JPEG, the decoder's own gray8/rgb8/rgba8 otherwise), display (premultiplied bgra8), high (rgba16 for 16-bit sources, reduced in 16-bit precision), or one of gray8, grayAlpha8, alpha8, rgb8, rgba8, rgba8Premultiplied, bgra8, bgra8Premultiplied, rgba16, yuv420, nv12."
    )
    var pixelFormat: PixelFormatArgument = ThumbnailJob.defaults.pixelFormat

    @Option(help: OutputExtensions.qualityHelp)
    var quality: Int = ThumbnailJob.defaults.quality

    @Option(help: "JPEG output chroma subsampling: 420 or 444.")
    var subsampling: Int = ThumbnailJob.defaults.subsampling

    @Flag(help: "Write progressive JPEGs.")
    var progressive = ThumbnailJob.defaults.progressive

    @Flag(help: OutputExtensions.optimizeCodingHelp)
    var optimizeCoding = ThumbnailJob.defaults.optimizeCoding

    @Option(help: ArgumentHelp("Output format when -o is a directory or absent: \(OutputExtensions.formatNames)."))
    var format: String = ThumbnailJob.defaults.format

    @Option(help: "PNG output: zlib compression level, 0-9.")
    var compression: Int = ThumbnailJob.defaults.compression

    @Option(
        help:
            "PNG output: scanline filters: none (the default, as libvips writes: fastest), adaptive (about a quarter smaller, slower), sub, up, average, paeth, or auto (adaptive up to 4 MP, none above)."
    )
    var pngFilter: PNGEncoder.Filters = ThumbnailJob.defaults.pngFilter

    @Option(help: "PNG output: bits per sample, 8 or 16 (default: 16 for rgba16 pixels, else 8).")
    var depth: Int?

    @Flag(
        help:
            "WebP, AVIF and JPEG XL output: lossless (WebP's VP8L; AVIF at quantizer 0, 4:4:4; JPEG XL's modular mode) instead of lossy."
    )
    var lossless = ThumbnailJob.defaults.lossless

    @Flag(
        help:
            "Keep the source's EXIF block in the output (orientation reset to 1). Stripped by default: it may hold GPS."
    )
    var keepExif = ThumbnailJob.defaults.keepExif

    @Flag(help: "Drop the source's ICC profile (kept by default so colours stay right).")
    var stripIcc = ThumbnailJob.defaults.stripIcc

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (one input: \(OutputExtensions.list)) or directory."))
    var output: String?

    @Flag(help: "Enlarge images smaller than --size.")
    var upscale = ThumbnailJob.defaults.upscale

    @Option(
        help: ArgumentHelp(
            "Animations (GIF, WebP): all keeps every frame when the output holds animations (\(OutputExtensions.animationNames)), decoded one at a time at the output size; first writes the first frame only."
        ))
    var frames: FramesArgument = ThumbnailJob.defaults.frames

    @OptionGroup(title: "Limits and damage")
    var decoding: DecodingArguments

    @OptionGroup(title: "Colour")
    var colorArguments: ColorArguments

    @Option(
        help:
            "Threads (default: the number of cores): parallel workers for a batch; the cores they leave idle (one input, a batch's last ones) decode a HEIC or AVIF grid's or a TIFF's tiles or strips beside them. --jobs 1 decodes on one thread."
    )
    var jobs: Int?

    @Flag(
        help:
            "One JSON line per input: input, output, sourceWidth, sourceHeight, orientation, width, height, prescale, window (x, y, width, height: the part of the displayed image shown), path (the route the decode took: dctScaledRows, dctScaledPlanes, restartBands, coefficientBuffer, dcFirst, dcOnly, embeddedThumbnail, rows, interlacedPasses, scaledPlanes, scaledRows, wholeImage, firstFrameRows, interlacedFrame, tileRows), decoder (the library that decoded: libjpeg-turbo, libspng, libwebp, libde265, dav1d, libtiff and the others, with its version when it gives one, or shrink for Shrink's own decoders: GIF's LZW, the DC-only JPEG decoder), pixelFormat, bufferBytes, predictedPeakBytes (with what the threads --jobs leaves idle may hold helping the decode), measuredPeakBytes (heap growth during the decode, sampled at each strip; with one worker, else null), heapHighWaterBytes (growth of the allocator's hold from the system during the decode: its high-water mark, but for what fits in free chunks held before, when run with GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=0), warnings (damage stepped over), milliseconds (and error)."
    )
    var json = ThumbnailJob.defaults.json

    /// The parsed values as a ``ThumbnailJob``.
    var job: ThumbnailJob {
        ThumbnailJob(
            inputs: inputs, size: size, prescale: prescale, fit: fit, gravity: gravity, mode: mode,
            embeddedThumbnail: embeddedThumbnail,
            pixelFormat: pixelFormat, quality: quality, subsampling: subsampling, progressive: progressive,
            optimizeCoding: optimizeCoding, format: format, compression: compression, pngFilter: pngFilter,
            depth: depth, lossless: lossless,
            keepExif: keepExif, stripIcc: stripIcc, output: output, upscale: upscale, frames: frames,
            decoding: decoding.settings,
            color: colorArguments.color, jobs: jobs, json: json)
    }

    func validate() throws { try job.validate() }

    func run() throws { try job.run() }
}
