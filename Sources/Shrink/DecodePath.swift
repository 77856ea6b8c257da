/// Which machinery a decode runs on, chosen by the planner from the header (reported by `--json` as `path`).
public enum DecodePath: String, Sendable {
    /// libjpeg, rows streamed as they are decoded (baseline JPEG).
    case libjpegRows
    /// libjpeg, Y/Cb/Cr planes streamed with no colour conversion (baseline JPEG into yuv420/nv12).
    case libjpegPlanes
    /// libjpeg with its whole-image coefficient buffer (progressive or multi-scan JPEG at 1/1–1/4, or a
    /// progressive layout the DC-first path does not handle).
    case libjpegCoefficients
    /// Shrink's own 1/8 decoder of progressive JPEGs: DC scans, plus 4:2:0 chroma AC scans block by block.
    case dcFirst
    /// The JPEG thumbnail embedded in the EXIF block, decoded instead of the image.
    case embeddedThumbnail
    /// libspng, rows streamed (non-interlaced PNG).
    case libspngRows
    /// libspng, Adam7 passes summed into the reduced grid.
    case libspngInterlaced
}
