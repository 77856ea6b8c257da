import CShrinkTIFF
import ShrinkCore

/// One open libtiff handle over bytes in memory (libtiff's state is not shared between threads: each decode opens
/// its own). Reads fields of the current directory by type; closes with the handle.
final class TIFFHandle {
    let raw: OpaquePointer
    /// The bytes libtiff reads in place (kept alive with the handle).
    let bytes: ImageBytes
    let path: String

    /// Opens the TIFF in `bytes` at its first directory; libtiff allocates no single block above `maxAllocation`.
    /// Fails with `.unsupportedFeature` when libtiff (loaded on first use) does not load, `.corruptData` when it
    /// cannot read the file.
    init(bytes: ImageBytes, path: String, maxAllocation: Int) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        guard shrink_tiff_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(path): TIFF images need libtiff", debian: "libtiff6", reason: shrink_tiff_load_error())
        }
        var message = [CChar](repeating: 0, count: 512)
        guard
            let handle = cshrink_tiff_open(
                bytes.bytes.baseAddress, bytes.count, maxAllocation, &message, message.count)
        else {
            throw ImageError(.corruptData, "\(path): not a TIFF libtiff can read", cause: String(cBuffer: message))
        }
        raw = handle
    }

    /// Opens the TIFF in `bytes` at the image directory `location` (a page or a SubIFD). Fails with `.corruptData`
    /// when that directory cannot be read.
    convenience init(
        bytes: ImageBytes, path: String, maxAllocation: Int, selecting location: TIFFPage.Location
    ) throws(ImageError) {
        try self.init(bytes: bytes, path: path, maxAllocation: maxAllocation)
        let selected: Bool
        switch location {
        case .page(let index): selected = select(page: index)
        case .subIFD(let offset): selected = select(subIFD: offset)
        }
        guard selected else {
            throw ImageError(.corruptData, "\(path): the TIFF's image directory cannot be read", cause: lastError)
        }
    }

    deinit { cshrink_tiff_close(raw) }

    /// The last error libtiff reported.
    var lastError: String { String(cString: cshrink_tiff_error(raw)) }

    /// The first warning libtiff reported, and how many it reported.
    var warnings: (count: Int, first: String) {
        (Int(cshrink_tiff_warning_count(raw)), String(cString: cshrink_tiff_first_warning(raw)))
    }

    func u32(_ tag: UInt32) -> UInt32? {
        var value: UInt32 = 0
        return cshrink_tiff_u32(raw, tag, &value) == 1 ? value : nil
    }

    func u16(_ tag: UInt32, stored: Bool = false) -> UInt16? {
        var value: UInt16 = 0
        let found = stored ? cshrink_tiff_u16_stored(raw, tag, &value) : cshrink_tiff_u16(raw, tag, &value)
        return found == 1 ? value : nil
    }

    /// The ICC profile's location in libtiff's memory (valid while the directory is current).
    var iccProfile: UnsafeRawBufferPointer? {
        var data: UnsafeRawPointer?
        var length: UInt32 = 0
        guard cshrink_tiff_icc(raw, &data, &length) == 1, let data else { return nil }
        return UnsafeRawBufferPointer(start: data, count: Int(length))
    }

    /// The SubIFD offsets of the current directory.
    var subIFDs: [UInt64] {
        var count: UInt16 = 0
        var offsets: UnsafePointer<UInt64>?
        guard cshrink_tiff_subifds(raw, &count, &offsets) == 1, let offsets else { return [] }
        return Array(UnsafeBufferPointer(start: offsets, count: Int(count)))
    }

    /// The kinds of the extra samples (0 unspecified, 1 associated alpha, 2 unassociated alpha).
    var extraSamples: [UInt16] {
        var count: UInt16 = 0
        var kinds: UnsafePointer<UInt16>?
        guard cshrink_tiff_extra_samples(raw, &count, &kinds) == 1, let kinds else { return [] }
        return Array(UnsafeBufferPointer(start: kinds, count: Int(count)))
    }

    var isTiled: Bool { cshrink_tiff_is_tiled(raw) != 0 }

    /// Makes directory `index` of the main chain current.
    func select(page index: Int) -> Bool { cshrink_tiff_set_directory(raw, Int32(index)) == 1 }

    /// Makes the SubIFD at `offset` current.
    func select(subIFD offset: UInt64) -> Bool { cshrink_tiff_set_subdirectory(raw, offset) == 1 }

    /// The file offset of the strip or tile holding pixel (`x`, `y`) of the current image.
    func blockOffset(x: Int, y: Int) -> UInt64 { cshrink_tiff_block_offset(raw, UInt32(x), UInt32(y)) }

    /// Directories in the main chain, at most `limit`.
    func countPages(limit: Int) -> Int { Int(cshrink_tiff_count_directories(raw, Int32(limit))) }

    /// Why libtiff's RGBA reader does not take the current image, or nil when it does.
    var rgbaRefusal: String? {
        var message = [CChar](repeating: 0, count: 1024)
        guard cshrink_tiff_rgba_ok(raw, &message, message.count) == 0 else { return nil }
        return String(cBuffer: message)
    }
}
