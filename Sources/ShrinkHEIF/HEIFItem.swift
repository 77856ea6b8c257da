/// One item of a HEIF/AVIF file: a coded image, a tile, a grid, an EXIF block…, with where its data lies.
package struct HEIFItem: Sendable, Equatable {
    /// The item's ID.
    package let id: Int
    /// `hvc1`, `av01`, `grid`, `iden`, `iovl`, `Exif`, `mime`…
    package var type: String
    /// The name from `infe` (often empty).
    package var name: String
    /// True for items not meant to be shown on their own (tiles, alpha planes).
    package var isHidden: Bool
    /// Where the data is: extents in the file, or (for `idat`) in the `idat` box's payload, already made
    /// absolute; their lengths are checked against the file.
    package var extents: [Range<Int>]
    /// Indices into the container's property list, with whether each is essential.
    package var properties: [(index: Int, essential: Bool)]

    package static func == (a: HEIFItem, b: HEIFItem) -> Bool {
        a.id == b.id && a.type == b.type && a.name == b.name && a.isHidden == b.isHidden && a.extents == b.extents
            && a.properties.map(\.index) == b.properties.map(\.index)
            && a.properties.map(\.essential) == b.properties.map(\.essential)
    }

    /// Bytes of data in all extents.
    package var dataCount: Int { extents.reduce(0) { $0 + $1.count } }
}
