import ShrinkCore

/// A Fujifilm RAF file's header: the camera's name and the embedded JPEG (a full camera JPEG with its own EXIF),
/// whose offset and length are big-endian integers at bytes 84 and 88.
package struct RAFHeader: Sendable {
    /// The camera model the header names.
    package let model: String?
    /// The embedded JPEG, when its range is inside the file and holds a displayable JPEG.
    package let preview: RAWPreview?

    /// Reads the header of `bytes` (which start `FUJIFILMCCD-RAW `).
    package init(_ bytes: UnsafeRawBufferPointer) {
        let reader = TIFFBytes(bytes, littleEndian: false)
        model = bytes.count >= 60 ? String(cBytes: UnsafeRawBufferPointer(rebasing: bytes[28..<60])).cameraText : nil
        if let start = reader.u32(84), let length = reader.u32(88), length > 0, start <= bytes.count - length,
            RAWPreview.isDisplayableJPEG(bytes, start..<start + length)
        {
            preview = RAWPreview(encoding: .jpeg, range: start..<start + length, origin: "RAF header")
        } else {
            preview = nil
        }
    }
}
