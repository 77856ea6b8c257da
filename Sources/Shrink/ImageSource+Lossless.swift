import ShrinkCore

/// JPEG's lossless operations: made upright and cropped on the DCT coefficients, nothing re-encoded.
extension ImageSource {
    /// The JPEG made upright without decoding: the EXIF orientation applied to the DCT coefficients (like
    /// `jpegtran`), the tag then set to 1, every other marker kept. With `trim`, edge blocks that cannot be
    /// moved exactly are dropped; without it they are `.unsupportedFeature`. Non-JPEG input is
    /// `.unsupportedFormat`. Its cost (every DCT coefficient, twice for a rotation) is predicted from the
    /// header and checked against ``limits`` (``ImageLimits/maxWorkingBytes`` for the coefficients) before
    /// anything is allocated (`.limitExceeded`, `.memoryBudgetExceeded`).
    public func losslesslyUpright(trim: Bool = false) throws(ImageError) -> [UInt8] {
        do {
            let transforms = try losslessTransforms()
            return try readingInput { () throws(ImageError) in
                try transforms.upright(from: info.orientation, trim: trim, memoryBudget: limits.maxWorkingBytes)
            }
        } catch {
            throw error.naming(name)
        }
    }

    /// The image cropped without decoding: `region` (displayed pixels) is widened outwards to whole coded
    /// blocks (JPEG iMCUs) of the stored image, cut out, and nothing is re-encoded; the EXIF orientation is
    /// kept, so the result displays as the region. Returns the bytes and the region actually kept (displayed
    /// pixels). A region under 1×1 or outside the image is `.invalidArgument`; the cost is checked like
    /// ``losslesslyUpright(trim:)``'s.
    public func losslessCrop(_ region: PixelRect) throws(ImageError) -> (bytes: [UInt8], region: PixelRect) {
        let out: [UInt8], kept: FractionalRect
        do {
            let transforms = try losslessTransforms()
            let stored = info.orientation.storedRect(for: try checkedRegion(region), storedSize: info.size)
            (out, kept) = try readingInput { () throws(ImageError) in
                try transforms.crop(stored, memoryBudget: limits.maxWorkingBytes)
            }
        } catch {
            throw error.naming(name)
        }
        // Back to displayed coordinates: the same orientation, mapped from stored.
        return (out, displayedRect(of: kept))
    }

    private func losslessTransforms() throws(ImageError) -> any LosslessTransforming {
        guard let transforms = decoder.losslessTransforms else {
            throw ImageError(
                .unsupportedFormat,
                "\(name): lossless transforms are not available for \(info.format.name.uppercased()) (JPEG only)")
        }
        return transforms
    }

    /// The displayed rectangle of stored rectangle `rect` (the inverse of ImageOrientation.storedRect).
    private func displayedRect(of rect: FractionalRect) -> PixelRect {
        let o = info.orientation
        let a = o.displayedPosition(x: Int(rect.x), y: Int(rect.y), in: info.size)
        let b = o.displayedPosition(x: Int(rect.x + rect.width) - 1, y: Int(rect.y + rect.height) - 1, in: info.size)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }
}
