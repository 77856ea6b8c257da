import CShrinkJPEG
import ShrinkCore

/// Lossless JPEG transforms (what `jpegtran` does): rotations, flips and transposes applied to the DCT
/// coefficients, so nothing is decoded or re-quantised. Markers (EXIF, ICC) are kept.
///
/// Memory: the whole file's coefficients (TurboJPEG) plus the output.
package enum JPEGTransform {
    /// A lossless operation on the coefficient blocks.
    package enum Operation: Int32, Sendable {
        case none = 0
        case flipHorizontal = 1, flipVertical, transpose, transverse, rotate90, rotate180, rotate270

        /// The operation that displays an image stored with `orientation` upright; nil for `.up`.
        package init?(undoing orientation: ImageOrientation) {
            switch orientation {
            case .up: return nil
            case .upMirrored: self = .flipHorizontal
            case .down: self = .rotate180
            case .downMirrored: self = .flipVertical
            case .leftMirrored: self = .transpose
            case .right: self = .rotate90
            case .rightMirrored: self = .transverse
            case .left: self = .rotate270
            }
        }
    }

    /// `bytes` transformed by `operation`. With `trim`, partial iMCU blocks at the edges that cannot be
    /// transformed exactly are dropped (the image shrinks by up to 15 pixels); without it they are an error
    /// (`.unsupportedFeature`) rather than a silently imperfect result.
    /// With `crop` (x, y, width, height in the transformed image's pixels, x and y on iMCU boundaries), the
    /// result is also cropped losslessly. Fails with `.unsupportedFeature` when TurboJPEG (loaded on the first call)
    /// does not load, `.outOfMemory` when it cannot allocate, `.corruptData` when it cannot read the file.
    package static func apply(
        _ operation: Operation, to bytes: ImageBytes, path: String, trim: Bool = false,
        crop: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) throws(ImageError) -> [UInt8] {
        guard shrink_turbojpeg_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "\(path): lossless transforms need TurboJPEG", debian: "libturbojpeg0",
                reason: shrink_turbojpeg_load_error())
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let c = crop ?? (0, 0, 0, 0)
        let status = sj_transform(
            bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
            operation.rawValue, trim || operation == .none ? 0 : 1, trim ? 1 : 0,
            Int32(c.x), Int32(c.y), Int32(c.width), Int32(c.height), &out, &length, &message, message.count)
        guard status == Int32(SJ_OK.rawValue), let out else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if status == Int32(SJ_UNSUPPORTED.rawValue) {
                throw ImageError(.unsupportedFeature, "\(path): \(text)")
            }
            // tjInitTransform failing, or libjpeg's or TurboJPEG's own allocation failures inside the transform.
            if status == Int32(SJ_OUT_OF_MEMORY.rawValue) || text.contains("Insufficient memory")
                || text.contains("Memory allocation failure")
            {
                throw ImageError(.outOfMemory, "\(path): TurboJPEG ran out of memory transforming it", cause: text)
            }
            if text.contains("perfect") {
                throw ImageError(
                    .unsupportedFeature,
                    "\(path): the image's edge blocks make a perfect lossless transform impossible (trim them to proceed)",
                    cause: text)
            }
            throw ImageError(.corruptData, "\(path): lossless transform failed", cause: text)
        }
        defer { sj_tj_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// A copy of JPEG `bytes` whose EXIF orientation tag (if any) reads 1; everything else unchanged.
    package static func settingOrientationUp(_ bytes: [UInt8]) -> [UInt8] {
        let range: Range<Int>? = bytes.withUnsafeBytes { JPEGMarkers(scanning: $0).exifRange }
        guard let range else { return bytes }
        var out = bytes
        let tiff = ExifReader.settingOrientationUp(Array(bytes[range]))
        out.replaceSubrange(range, with: tiff)
        return out
    }
}
