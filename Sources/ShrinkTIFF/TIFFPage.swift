import ShrinkCore

/// One image (directory) of a TIFF as its tags describe it, read without decoding a pixel: where it is, its size,
/// samples, photometric interpretation, layout in strips or tiles, orientation and alpha.
struct TIFFPage: Sendable {
    /// Where the directory is: a page of the main chain, or a SubIFD (a reduced image of a page).
    enum Location: Sendable, Equatable {
        case page(Int)
        case subIFD(UInt64)
    }

    let location: Location
    let size: PixelSize
    let bitsPerSample: Int
    let samplesPerPixel: Int
    /// TIFF's PhotometricInterpretation (0 min-is-white, 1 min-is-black, 2 RGB, 3 palette, 5 separated, 6 YCbCr…).
    let photometric: Int
    let compression: Int
    /// Tile size, for a tiled image.
    let tile: PixelSize?
    /// Rows per strip, for a stripped image.
    let rowsPerStrip: Int
    let orientation: ImageOrientation
    /// An extra sample is alpha (associated or not).
    let hasAlpha: Bool
    /// The alpha is associated (premultiplied) in the file, or said to be unassociated.
    let alphaIsAssociated: Bool, alphaIsUnassociated: Bool
    /// Extra samples after the colour ones.
    let extraSamples: Int
    /// SampleFormat: 1 unsigned, 2 signed, 3 IEEE float.
    let sampleFormat: Int
    /// PlanarConfiguration: 1 contiguous, 2 separate planes.
    let planar: Int
    /// NewSubfileType says this is a reduced-resolution version of another image.
    let isReduced: Bool
    /// Bytes of the ICC profile; 0 when none.
    let iccProfileBytes: Int
    /// Why libtiff's RGBA reader does not take it (32-bit float samples, unknown photometrics…), or nil.
    let refusal: String?

    /// The directory `handle` has current, at `location`.
    init(_ handle: TIFFHandle, at location: Location) {
        self.location = location
        size = PixelSize(
            width: Int(handle.u32(TIFFTag.imageWidth) ?? 0), height: Int(handle.u32(TIFFTag.imageLength) ?? 0))
        bitsPerSample = Int(handle.u16(TIFFTag.bitsPerSample) ?? 1)
        samplesPerPixel = Int(handle.u16(TIFFTag.samplesPerPixel) ?? 1)
        photometric = Int(handle.u16(TIFFTag.photometric, stored: true) ?? (samplesPerPixel >= 3 ? 2 : 1))
        compression = Int(handle.u16(TIFFTag.compression) ?? 1)
        if handle.isTiled {
            tile = PixelSize(
                width: Int(handle.u32(TIFFTag.tileWidth) ?? 0), height: Int(handle.u32(TIFFTag.tileLength) ?? 0))
        } else {
            tile = nil
        }
        let storedRows = Int(handle.u32(TIFFTag.rowsPerStrip) ?? UInt32.max)
        rowsPerStrip = min(storedRows, max(1, size.height))
        orientation = ImageOrientation(exifValue: Int(handle.u16(TIFFTag.orientation, stored: true) ?? 1))
        let extras = handle.extraSamples
        extraSamples = extras.count
        // An unspecified extra sample after gray or RGB is alpha, as Pillow and libvips read it (libtiff's RGBA
        // reader drops it: such pages are read from their samples).
        hasAlpha = extras.first.map { $0 <= 2 } ?? false
        alphaIsAssociated = extras.first == 1
        alphaIsUnassociated = extras.first == 2
        sampleFormat = Int(handle.u16(TIFFTag.sampleFormat) ?? 1)
        planar = Int(handle.u16(TIFFTag.planarConfig) ?? 1)
        isReduced = (handle.u32(TIFFTag.newSubfileType) ?? 0) & 1 != 0
        iccProfileBytes = handle.iccProfile?.count ?? 0
        if tile == nil, storedRows > Int(Int32.max), storedRows != Int(UInt32.max) {
            // Past a signed 32-bit count but not TIFF's "one strip" (2^32 - 1): an overflow Pillow and libvips refuse
            // (libtiff alone reads it, as one strip a plane whatever StripOffsets lists).
            refusal = "RowsPerStrip \(storedRows) is not a row count"
            inconsistent = true
        } else {
            refusal = handle.rgbaRefusal
            inconsistent = false
        }
    }

    /// Its tags contradict each other (no reading of it is right).
    let inconsistent: Bool

    /// The alpha is an extra sample of unspecified kind.
    var unspecifiedAlpha: Bool { hasAlpha && !alphaIsAssociated && !alphaIsUnassociated }

    /// Colour samples a pixel has (without the extra ones).
    var colourSamples: Int { samplesPerPixel - extraSamples }

    /// Decoded from its samples by Shrink (``TIFFSampleRows``) rather than libtiff's RGBA reader, so that strips are read
    /// a row at a time and reduced sizes summed as they are read: ink (CMYK, so the colour-managed ink conversion
    /// applies), unsigned and float gray or RGB, and signed samples the RGBA reader refuses or whose alpha it would drop
    /// (it reads the others as unsigned bytes, as Pillow does, and Shrink keeps that reading). Contiguous samples of
    /// 8, 16 or 32 bits only; never old-style JPEG or YCbCr.
    var readsSamples: Bool {
        guard planar == 1, [8, 16, 32].contains(bitsPerSample), (1...3).contains(sampleFormat), compression != 6,
            extraSamples <= 1, !(sampleFormat == 3 && bitsPerSample != 32)
        else { return false }
        let ownReading = sampleFormat != 2 || refusal != nil || unspecifiedAlpha
        switch photometric {
        case 5: return colourSamples == 4
        case 0, 1: return colourSamples == 1 && ownReading
        case 2: return colourSamples == 3 && ownReading
        default: return false
        }
    }

    /// Why it cannot be decoded at all, or nil.
    var unreadable: String? { readsSamples && !inconsistent ? nil : refusal }

    /// Rows decoded together: one for samples read a row at a time, a strip's through the RGBA reader, or a row of
    /// tiles'.
    var bandRows: Int { streamsRows ? 1 : max(1, min(tile?.height ?? rowsPerStrip, size.height)) }

    /// Read from its samples a row at a time (a stripped image): libtiff holds a strip's codec state, not the strip.
    var streamsRows: Bool { tile == nil && readsSamples }

    /// Bytes a pixel's stored samples take.
    var bytesPerPixel: Int { samplesPerPixel * bitsPerSample / 8 }

    /// Bytes libtiff decodes one strip or tile into.
    var blockBytes: Int {
        let bits = bitsPerSample * samplesPerPixel
        if let tile { return (tile.width * bits + 7) / 8 * tile.height }
        return (size.width * bits + 7) / 8 * bandRows
    }

    /// What the photometric interpretation is called.
    var photometricName: String {
        switch photometric {
        case 0: "min-is-white"
        case 1: "min-is-black"
        case 2: "RGB"
        case 3: "palette"
        case 4: "mask"
        case 5: "separated (CMYK)"
        case 6: "YCbCr"
        case 8: "CIELab"
        default: "photometric \(photometric)"
        }
    }

    /// A gray image (one sample of luma, maybe with alpha).
    var isGray: Bool { (photometric == 0 || photometric == 1) && samplesPerPixel - (hasAlpha ? 1 : 0) == 1 }
}
