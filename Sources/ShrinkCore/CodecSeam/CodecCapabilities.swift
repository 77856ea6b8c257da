/// What a codec can do, declared once in its registration (``Codec``), so that tools, docs and tests can ask
/// without decoding: how it shrinks while decoding, what it delivers, and which metadata it reads.
public struct CodecCapabilities: Sendable, Equatable {
    /// Ways a codec reduces while decoding, cheapest first.
    public enum ShrinkOnLoad: Sendable, Equatable {
        /// Integer DCT scaling by these denominators (JPEG: 2, 4, 8).
        case dctDenominators([Int])
        /// Any integer factor (a scaler inside the codec, or interlaced passes summed into a smaller grid).
        case anyFactor
        /// A smaller preview stored in the file (an EXIF thumbnail).
        case embeddedThumbnail
        /// Lower-resolution levels stored in the file.
        case pyramidLevels
    }

    /// Embedded metadata a codec reads.
    public enum Metadata: String, Sendable, CaseIterable {
        /// An EXIF block (orientation, camera data).
        case exif
        /// An embedded ICC profile.
        case icc
        /// An XMP packet.
        case xmp
    }

    /// How it shrinks on load; empty when it always decodes at full size.
    public var shrinkOnLoad: [ShrinkOnLoad]
    /// It can deliver Y, Cb, Cr planes without colour conversion.
    public var yieldsPlanes: Bool
    /// The row formats it delivers (8-bit gray/RGB/RGBA, rgba16 for 16-bit sources).
    public var rowFormats: [PixelFormat]
    /// The deepest sample it reads, in bits.
    public var maxBitsPerComponent: Int
    /// It reads transparency.
    public var alpha: Bool
    /// It skips rows and columns outside a window when only a region is needed.
    public var regions: Bool
    /// It offers lossless rotations and crops (``LosslessTransforming``).
    public var losslessTransforms: Bool
    /// It reads animations: the frame count and, through ``ImageDecoding/animation(options:monitor:)``, every frame.
    public var animation: Bool
    /// Metadata it reads.
    public var metadata: Set<Metadata>

    /// Capabilities as declared: only `rowFormats` is required; the rest default to nothing (full-size 8-bit
    /// opaque rows, no regions, no metadata).
    public init(
        shrinkOnLoad: [ShrinkOnLoad] = [], yieldsPlanes: Bool = false, rowFormats: [PixelFormat],
        maxBitsPerComponent: Int = 8, alpha: Bool = false, regions: Bool = false, losslessTransforms: Bool = false,
        animation: Bool = false, metadata: Set<Metadata> = []
    ) {
        self.shrinkOnLoad = shrinkOnLoad
        self.yieldsPlanes = yieldsPlanes
        self.rowFormats = rowFormats
        self.maxBitsPerComponent = maxBitsPerComponent
        self.alpha = alpha
        self.regions = regions
        self.losslessTransforms = losslessTransforms
        self.animation = animation
        self.metadata = metadata
    }
}
