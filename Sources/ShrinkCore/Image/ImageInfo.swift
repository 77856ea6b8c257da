/// What an image is, read from its header alone: no pixel is decoded and nothing of pixel size allocated.
public struct ImageInfo: Sendable, Equatable {
    /// The container format.
    public var format: ImageFormat
    /// The stored size (before orientation).
    public var size: PixelSize
    /// The EXIF orientation; `.up` when absent or invalid.
    public var orientation: ImageOrientation
    /// The colour model of the stored samples.
    public var colorModel: ColorModel
    /// Bits per stored sample (8 for baseline JPEG).
    public var bitsPerComponent: Int
    /// True when the image carries an alpha channel.
    public var hasAlpha: Bool
    /// True for progressive JPEG, interlaced PNG and interlaced GIF.
    public var isProgressive: Bool
    /// Chroma subsampling of YCbCr data; nil for gray, RGB or CMYK.
    public var chromaSubsampling: ChromaSubsampling?
    /// Bytes of the embedded ICC profile (all chunks); 0 when none.
    public var iccProfileBytes: Int
    /// Bytes of the EXIF block; 0 when none.
    public var exifBytes: Int
    /// What the file says of its colours when it has no ICC profile (HEIF `nclx`, PNG `cICP`, `gAMA`/`cHRM`);
    /// nil when it has a profile, says sRGB, or says nothing.
    package var codedColor: CodedColor?
    /// The size of the thumbnail embedded in the EXIF block, when there is one and it can be read.
    public var embeddedThumbnail: PixelSize?
    /// Format-specific features the header declares, e.g. PNG chunks (`PLTE`, `tRNS`, `gAMA`, `sRGB`,
    /// `iCCP`, `cHRM`, `eXIf`) or JPEG coding (`arithmetic`, `restart markers`).
    public var features: [String]
    /// Frames in the file (animated WebP and GIF); 1 for a still image. Only the first is decoded.
    public var frameCount: Int
    /// How often an animation repeats (0 = forever), when the file says; nil for stills.
    public var loopCount: Int?
    /// Damage found while reading the header and metadata that does not stop a decode (a malformed EXIF
    /// block, stray bytes between markers), one line each without the file name; empty for a clean file.
    public var warnings: [String]
    /// How the file is laid out, in its codec's words (JPEG: `progressive` or `baseline`; PNG and GIF:
    /// `interlaced` or `non-interlaced`; WebP: `lossless (VP8L)` or `lossy (VP8)`); nil where a format has no such
    /// distinction. What `shrink info` and the gallery's inspector print.
    public var layout: String?
    /// Where ``orientation`` comes from, in the format's words: `EXIF`, or `irot/imir` for HEIF and AVIF.
    public var orientationSource: String

    /// What a codec's header read found (``ImageDecoding/info``): the format and stored size, and whatever else
    /// the header says (the defaults are an 8-bit, opaque, upright still image with no metadata).
    public init(
        format: ImageFormat, size: PixelSize, orientation: ImageOrientation = .up, colorModel: ColorModel,
        bitsPerComponent: Int = 8, hasAlpha: Bool = false, isProgressive: Bool = false,
        chromaSubsampling: ChromaSubsampling? = nil, iccProfileBytes: Int = 0, exifBytes: Int = 0,
        embeddedThumbnail: PixelSize? = nil, features: [String] = [], frameCount: Int = 1, loopCount: Int? = nil,
        warnings: [String] = [], layout: String? = nil, orientationSource: String = "EXIF"
    ) {
        self.init(
            format: format, size: size, orientation: orientation, colorModel: colorModel,
            bitsPerComponent: bitsPerComponent, hasAlpha: hasAlpha, isProgressive: isProgressive,
            chromaSubsampling: chromaSubsampling, iccProfileBytes: iccProfileBytes, exifBytes: exifBytes,
            codedColor: nil, embeddedThumbnail: embeddedThumbnail, features: features, frameCount: frameCount,
            loopCount: loopCount, warnings: warnings, layout: layout, orientationSource: orientationSource)
    }

    /// ``init(format:size:orientation:colorModel:bitsPerComponent:hasAlpha:isProgressive:chromaSubsampling:iccProfileBytes:exifBytes:embeddedThumbnail:features:frameCount:loopCount:warnings:layout:orientationSource:)``
    /// with the colours the file codes without an ICC profile.
    package init(
        format: ImageFormat, size: PixelSize, orientation: ImageOrientation = .up, colorModel: ColorModel,
        bitsPerComponent: Int = 8, hasAlpha: Bool = false, isProgressive: Bool = false,
        chromaSubsampling: ChromaSubsampling? = nil, iccProfileBytes: Int = 0, exifBytes: Int = 0,
        codedColor: CodedColor?, embeddedThumbnail: PixelSize? = nil, features: [String] = [],
        frameCount: Int = 1, loopCount: Int? = nil,
        warnings: [String] = [], layout: String? = nil, orientationSource: String = "EXIF"
    ) {
        self.layout = layout
        self.orientationSource = orientationSource
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.format = format
        self.size = size
        self.orientation = orientation
        self.colorModel = colorModel
        self.bitsPerComponent = bitsPerComponent
        self.hasAlpha = hasAlpha
        self.isProgressive = isProgressive
        self.chromaSubsampling = chromaSubsampling
        self.iccProfileBytes = iccProfileBytes
        self.exifBytes = exifBytes
        self.codedColor = codedColor
        self.embeddedThumbnail = embeddedThumbnail
        self.features = features
        self.warnings = warnings
    }

    /// The size as displayed, after orientation.
    public var displayedSize: PixelSize { orientation.displayedSize(of: size) }

    /// Exact bytes the full displayed image would take decoded in `format`.
    public func decodedBytes(as format: PixelFormat) -> Int { format.byteCount(for: displayedSize) }
}
