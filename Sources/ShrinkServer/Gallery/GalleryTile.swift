import Shrink

/// One image of a gallery folder as the page shows it: its name, path under the root, file size and header
/// facts (or why the header could not be read). Made from a header read only: no pixel is decoded.
package struct GalleryTile: Sendable {
    /// The path under the local root, `/`-separated with a leading `/` (nil when the name is not valid
    /// UTF-8: such a file cannot be named in a URL, and the tile says so).
    package let path: String?
    /// The file name for display (invalid UTF-8 shown as U+FFFD).
    package let name: String
    /// The file's size in bytes.
    package let bytes: Int
    /// The header's facts, when it could be read within the limits.
    package let info: ImageInfo?
    /// Why not, in one line without the root's path.
    package let error: String?
}
