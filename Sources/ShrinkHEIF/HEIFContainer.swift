import ShrinkCore

/// What a HEIF or AVIF file's boxes say — brands, items, where their data lies, their properties and the
/// references between them — read by a bounds-checked walk over the file (`ftyp`, `meta` with `hdlr`, `pitm`,
/// `iinf`/`infe`, `iloc`, `iref`, `iprp`/`ipco`/`ipma`, `idat`). No image data is read or copied: extents are
/// ranges of the file. Every length, offset and count is checked against the file and ``HEIFLimits`` before
/// it is used.
///
/// Cost: a few small arrays per item (a grid image has an item per tile, plus a few; BENCHMARKS.md, "Figures behind the
/// code").
package struct HEIFContainer: Sendable {
    /// `ftyp`'s major brand (`heic`, `avif`, `mif1`…) and compatible brands.
    package let majorBrand: String
    package let compatibleBrands: [String]
    /// The primary item's ID (`pitm`).
    package let primaryID: Int
    /// Items by ID, and their IDs in `iinf` order.
    package let items: [Int: HEIFItem]
    package let itemIDs: [Int]
    /// `ipco`'s properties in order (an association's index 1 is element 0).
    package let properties: [HEIFProperty]
    /// `iref`'s entries in order.
    package let references: [HEIFReference]

    /// Parses the container in `bytes`; `path` names it in errors. Fails with `.unsupportedFormat` when the
    /// file is not an image file of this family (no `ftyp`, or a `meta` whose handler is not `pict`),
    /// `.corruptData` or `.truncated` for boxes that do not parse, `.limitExceeded` past ``HEIFLimits``.
    package init(bytes: UnsafeRawBufferPointer, path: String) throws(ImageError) {
        let top = try ISOBox.children(of: bytes, in: 0..<bytes.count, path: path)
        guard let ftyp = top.first, ftyp.type == "ftyp" else {
            throw ImageError(.unsupportedFormat, "\(path): not a HEIF/AVIF file (it does not start with an ftyp box)")
        }
        var r = BoxReader(bytes, range: ftyp.payload, path: path)
        majorBrand = try r.fourCC("major brand")
        try r.skip(4, "minor version")
        var brands: [String] = []
        while r.remaining >= 4 && brands.count < 64 { brands.append(try r.fourCC("compatible brand")) }
        compatibleBrands = brands
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            if top.contains(where: { $0.type == "mini" }) {
                throw ImageError(
                    .unsupportedFeature, "\(path): low-overhead HEIF (a 'mini' box, brand \(majorBrand)) is not decoded"
                )
            }
            throw ImageError(.corruptData, "\(path): HEIF file without a meta box")
        }
        var m = BoxReader(bytes, range: meta.payload, path: path)
        _ = try m.versionAndFlags("meta")
        let boxes = try ISOBox.children(of: bytes, in: m.offset..<meta.payload.upperBound, path: path)
        func one(_ type: String) -> ISOBox? { boxes.first { $0.type == type } }

        guard let hdlr = one("hdlr") else { throw ImageError(.corruptData, "\(path): HEIF meta box without a handler") }
        var h = BoxReader(bytes, range: hdlr.payload, path: path)
        _ = try h.versionAndFlags("hdlr")
        try h.skip(4, "hdlr pre_defined")
        let handler = try h.fourCC("handler type")
        guard handler == "pict" else {
            throw ImageError(.unsupportedFormat, "\(path): HEIF meta handler is '\(handler)', not pict")
        }

        guard let pitm = one("pitm") else {
            throw ImageError(.corruptData, "\(path): HEIF file without a primary item (pitm)")
        }
        var p = BoxReader(bytes, range: pitm.payload, path: path)
        let pv = try p.versionAndFlags("pitm")
        primaryID = pv.version == 0 ? try p.u16("primary item") : try p.u32("primary item")

        var items: [Int: HEIFItem] = [:]
        var order: [Int] = []
        if let iinf = one("iinf") {
            var i = BoxReader(bytes, range: iinf.payload, path: path)
            let v = try i.versionAndFlags("iinf")
            let count = v.version == 0 ? try i.u16("item count") : try i.u32("item count")
            guard count <= HEIFLimits.maxItems else {
                throw ImageError(
                    .limitExceeded, "\(path): HEIF file declares \(count) items (at most \(HEIFLimits.maxItems))")
            }
            for box in try ISOBox.children(of: bytes, in: i.offset..<iinf.payload.upperBound, path: path)
            where box.type == "infe" {
                guard order.count < HEIFLimits.maxItems else { break }
                var e = BoxReader(bytes, range: box.payload, path: path)
                let ev = try e.versionAndFlags("infe")
                guard ev.version >= 2 else { continue } // versions 0 and 1 describe files, not images
                let id = ev.version == 2 ? try e.u16("item ID") : try e.u32("item ID")
                try e.skip(2, "item protection index")
                let type = try e.fourCC("item type")
                let name = e.cString("item name")
                guard items[id] == nil else {
                    throw ImageError(.corruptData, "\(path): HEIF item \(id) is declared twice")
                }
                items[id] = HEIFItem(
                    id: id, type: type, name: name, isHidden: ev.flags & 1 != 0, extents: [], properties: [])
                order.append(id)
            }
        }

        // idat first: iloc extents with construction method 1 are relative to it.
        let idat = one("idat")?.payload
        if let iloc = one("iloc") {
            try Self.readLocations(bytes, iloc.payload, idat: idat, into: &items, path: path)
        }

        var references: [HEIFReference] = []
        if let iref = one("iref") {
            var i = BoxReader(bytes, range: iref.payload, path: path)
            let v = try i.versionAndFlags("iref")
            var total = 0
            for box in try ISOBox.children(of: bytes, in: i.offset..<iref.payload.upperBound, path: path) {
                var e = BoxReader(bytes, range: box.payload, path: path)
                let from = v.version == 0 ? try e.u16("reference from") : try e.u32("reference from")
                let count = try e.u16("reference count")
                total += count
                guard count <= HEIFLimits.maxReferencesPerItem, total <= HEIFLimits.maxReferences else {
                    throw ImageError(.limitExceeded, "\(path): too many HEIF item references (\(total))")
                }
                var to: [Int] = []
                to.reserveCapacity(count)
                for _ in 0..<count { to.append(v.version == 0 ? try e.u16("reference to") : try e.u32("reference to")) }
                references.append(HEIFReference(type: box.type, from: from, to: to))
            }
        }
        self.references = references

        var properties: [HEIFProperty] = []
        if let iprp = one("iprp") {
            let children = try ISOBox.children(of: bytes, in: iprp.payload, path: path)
            if let ipco = children.first(where: { $0.type == "ipco" }) {
                let boxes = try ISOBox.children(
                    of: bytes, in: ipco.payload, path: path, maxBoxes: HEIFLimits.maxProperties)
                for box in boxes { properties.append(try Self.property(bytes, box, path: path)) }
            }
            for ipma in children where ipma.type == "ipma" {
                var a = BoxReader(bytes, range: ipma.payload, path: path)
                let v = try a.versionAndFlags("ipma")
                let count = try a.u32("association entry count")
                guard count <= HEIFLimits.maxItems else {
                    throw ImageError(
                        .limitExceeded,
                        "\(path): HEIF property associations for \(count) items (at most \(HEIFLimits.maxItems))")
                }
                for _ in 0..<count {
                    let id = v.version < 1 ? try a.u16("associated item") : try a.u32("associated item")
                    let n = try a.u8("association count")
                    var list: [(index: Int, essential: Bool)] = []
                    for _ in 0..<n {
                        let value = v.flags & 1 != 0 ? try a.u16("property index") : try a.u8("property index")
                        let bits = v.flags & 1 != 0 ? 15 : 7
                        let index = value & ((1 << bits) - 1)
                        guard index > 0 else { continue }
                        guard index <= properties.count else {
                            throw ImageError(
                                .corruptData, "\(path): HEIF item \(id) names property \(index) of \(properties.count)")
                        }
                        list.append((index - 1, value >> bits != 0))
                    }
                    items[id]?.properties += list
                }
            }
        }
        self.properties = properties
        self.items = items
        itemIDs = order
        guard items[primaryID] != nil else {
            throw ImageError(.corruptData, "\(path): HEIF primary item \(primaryID) is not among the file's items")
        }
    }

    /// Reads `iloc`: for each item its construction method, base offset and extents, made absolute and checked
    /// against the file (or against `idat`).
    private static func readLocations(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, idat: Range<Int>?,
        into items: inout [Int: HEIFItem], path: String
    ) throws(ImageError) {
        var r = BoxReader(bytes, range: range, path: path)
        let v = try r.versionAndFlags("iloc")
        guard v.version <= 2 else { throw ImageError(.unsupportedFeature, "\(path): HEIF iloc version \(v.version)") }
        let sizes = try r.u16("iloc field sizes")
        let offsetSize = sizes >> 12, lengthSize = (sizes >> 8) & 15, baseSize = (sizes >> 4) & 15
        let indexSize = v.version >= 1 ? sizes & 15 : 0
        let count = v.version < 2 ? try r.u16("iloc item count") : try r.u32("iloc item count")
        guard count <= HEIFLimits.maxItems else {
            throw ImageError(.limitExceeded, "\(path): HEIF iloc lists \(count) items (at most \(HEIFLimits.maxItems))")
        }
        var total = 0
        for _ in 0..<count {
            let id = v.version < 2 ? try r.u16("iloc item ID") : try r.u32("iloc item ID")
            let method = v.version >= 1 ? try r.u16("construction method") & 15 : 0
            try r.skip(2, "data reference index")
            let base = try r.uint(size: baseSize, "base offset")
            let extentCount = try r.u16("extent count")
            total += extentCount
            guard extentCount <= HEIFLimits.maxExtentsPerItem, total <= HEIFLimits.maxExtents else {
                throw ImageError(
                    .limitExceeded, "\(path): HEIF item \(id) has \(extentCount) extents (\(total) in all)")
            }
            var extents: [Range<Int>] = []
            for _ in 0..<extentCount {
                if indexSize > 0 { _ = try r.uint(size: indexSize, "extent index") }
                let offset = try r.uint(size: offsetSize, "extent offset")
                let length = try r.uint(size: lengthSize, "extent length")
                let space: Range<Int>
                switch method {
                case 0: space = 0..<bytes.count
                case 1:
                    guard let idat else {
                        throw ImageError(.corruptData, "\(path): HEIF item \(id) lies in an idat box the file lacks")
                    }
                    space = idat
                default:
                    throw ImageError(
                        .unsupportedFeature,
                        "\(path): HEIF item \(id) is built from other items (iloc method \(method))")
                }
                let (start, overflow) = space.lowerBound.addingReportingOverflow(base)
                let (first, overflow2) = start.addingReportingOverflow(offset)
                guard !overflow, !overflow2, first >= space.lowerBound, first <= space.upperBound else {
                    throw ImageError(.truncated, "\(path): HEIF item \(id)'s data starts past the end of the file")
                }
                let end = length == 0 ? space.upperBound : first + min(length, space.upperBound - first + 1)
                guard end <= space.upperBound else {
                    throw ImageError(
                        .truncated,
                        "\(path): HEIF item \(id)'s data runs past the end of the file (\(length) bytes at \(first))")
                }
                extents.append(first..<end)
            }
            items[id]?.extents = extents
        }
    }

    /// Parses one property box.
    private static func property(_ bytes: UnsafeRawBufferPointer, _ box: ISOBox, path: String) throws(ImageError)
        -> HEIFProperty
    {
        var r = BoxReader(bytes, range: box.payload, path: path)
        switch box.type {
        case "ispe":
            _ = try r.versionAndFlags("ispe")
            return .size(width: try r.u32("image width"), height: try r.u32("image height"))
        case "hvcC": return .hevcConfiguration(box.payload)
        case "av1C": return .av1Configuration(box.payload)
        case "colr":
            let kind = try r.fourCC("colour type")
            switch kind {
            case "nclx":
                let primaries = try r.u16("colour primaries"), transfer = try r.u16("transfer characteristics")
                let matrix = try r.u16("matrix coefficients")
                let full = try r.u8("full range flag") & 0x80 != 0
                return .color(.nclx(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: full))
            case "rICC", "prof": return .color(.icc(r.offset..<box.payload.upperBound))
            default: return .other("colr/\(kind)")
            }
        case "pixi":
            _ = try r.versionAndFlags("pixi")
            let n = try r.u8("channel count")
            var bits: [Int] = []
            for _ in 0..<n { bits.append(try r.u8("bits per channel")) }
            return .bitsPerChannel(bits)
        case "irot": return .rotation((try r.u8("rotation") & 3) * 90)
        case "imir": return .mirror(axis: try r.u8("mirror axis") & 1)
        case "clap":
            func fraction(_ what: String, signed: Bool) throws(ImageError) -> HEIFProperty.Fraction {
                var n = try r.u32("\(what) numerator")
                if signed && n >= 1 << 31 { n -= 1 << 32 }
                return HEIFProperty.Fraction(numerator: n, denominator: try r.u32("\(what) denominator"))
            }
            return .cleanAperture(
                width: try fraction("clap width", signed: false), height: try fraction("clap height", signed: false),
                horizontalOffset: try fraction("clap horizontal offset", signed: true),
                verticalOffset: try fraction("clap vertical offset", signed: true))
        case "auxC":
            _ = try r.versionAndFlags("auxC")
            return .auxiliaryType(r.cString("auxiliary type"))
        default: return .other(box.type)
        }
    }

    /// The properties of item `id`, in association order.
    package func properties(of id: Int) -> [HEIFProperty] {
        (items[id]?.properties ?? []).map { properties[$0.index] }
    }

    /// The items item `id` refers to with `type` (a grid's tiles for `dimg`, in row order).
    package func references(_ type: String, from id: Int) -> [Int] {
        references.filter { $0.type == type && $0.from == id }.flatMap(\.to)
    }

    /// The items that refer to item `id` with `type` (its thumbnails for `thmb`, its alpha or depth for `auxl`,
    /// its EXIF for `cdsc`).
    package func items(referencing id: Int, with type: String) -> [Int] {
        references.filter { $0.type == type && $0.to.contains(id) }.map(\.from)
    }

    /// Item `id`'s `ispe` size, when it has one.
    package func size(of id: Int) -> PixelSize? {
        for case .size(let w, let h) in properties(of: id) { return PixelSize(width: w, height: h) }
        return nil
    }

    /// How item `id` is displayed: its `irot` and `imir` properties composed in association order, as an EXIF
    /// orientation (EXIF orientation inside HEIF files is ignored, as the format says: iPhone photos carry both).
    package func orientation(of id: Int) -> ImageOrientation {
        // 2×2 integer matrices mapping stored to displayed coordinates (y down); later properties apply last.
        var m = (1, 0, 0, 1)
        func apply(_ t: (Int, Int, Int, Int)) {
            m = (t.0 * m.0 + t.1 * m.2, t.0 * m.1 + t.1 * m.3, t.2 * m.0 + t.3 * m.2, t.2 * m.1 + t.3 * m.3)
        }
        for property in properties(of: id) {
            switch property {
            case .rotation(let degrees):
                for _ in 0..<(degrees / 90 % 4) { apply((0, 1, -1, 0)) } // a quarter turn anticlockwise
            case .mirror(let axis):
                apply(axis == 0 ? (1, 0, 0, -1) : (-1, 0, 0, 1)) // 0 top to bottom, 1 left to right
            default: break
            }
        }
        switch m {
        case (-1, 0, 0, 1): return .upMirrored
        case (-1, 0, 0, -1): return .down
        case (1, 0, 0, -1): return .downMirrored
        case (0, 1, 1, 0): return .leftMirrored
        case (0, -1, 1, 0): return .right
        case (0, -1, -1, 0): return .rightMirrored
        case (0, 1, -1, 0): return .left
        default: return .up
        }
    }

    /// True when item `id` has a transformative property (`clap`, `irot`, `imir`) not marked essential: the
    /// format requires them to be, and readers refuse such files (libavif does) rather than guess.
    package func hasNonEssentialTransform(of id: Int) -> Bool {
        (items[id]?.properties ?? []).contains { association in
            guard !association.essential else { return false }
            switch properties[association.index] {
            case .rotation, .mirror, .cleanAperture: return true
            default: return false
            }
        }
    }

    /// Item `id`'s clean aperture (`clap`) in stored pixels: the rectangle of `size` it keeps, centred on the
    /// image's centre plus the offsets; nil when it has none or the fractions make no sense.
    package func cleanAperture(of id: Int, size: PixelSize) -> FractionalRect? {
        for case .cleanAperture(let w, let h, let dx, let dy) in properties(of: id) {
            guard w.denominator > 0, h.denominator > 0, dx.denominator > 0, dy.denominator > 0 else { return nil }
            let width = w.value, height = h.value
            let x = (Double(size.width) - 1) / 2 + dx.value - (width - 1) / 2
            let y = (Double(size.height) - 1) / 2 + dy.value - (height - 1) / 2
            let rect = FractionalRect(x: x.rounded(), y: y.rounded(), width: width.rounded(), height: height.rounded())
            return rect.isInside(size) ? rect : nil
        }
        return nil
    }

    /// Item `id`'s data: its extents joined (a copy; one extent is the usual case). Fails with
    /// `.limitExceeded` above `maxBytes` and `.corruptData` for an item without data.
    package func data(of id: Int, bytes: UnsafeRawBufferPointer, maxBytes: Int, path: String) throws(ImageError)
        -> [UInt8]
    {
        guard let item = items[id], !item.extents.isEmpty else {
            throw ImageError(.corruptData, "\(path): HEIF item \(id) has no data")
        }
        guard item.dataCount <= maxBytes else {
            throw ImageError(
                .limitExceeded, "\(path): HEIF item \(id) has \(item.dataCount) bytes of data (at most \(maxBytes))")
        }
        var out: [UInt8] = []
        out.reserveCapacity(item.dataCount)
        for extent in item.extents { out += UnsafeRawBufferPointer(rebasing: bytes[extent]) }
        return out
    }

    /// The first `count` bytes of item `id`'s data (fewer when it has fewer; none without data): for headers.
    package func prefix(of id: Int, bytes: UnsafeRawBufferPointer, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for extent in items[id]?.extents ?? [] where out.count < count {
            out += UnsafeRawBufferPointer(
                rebasing: bytes[extent.lowerBound..<min(extent.upperBound, extent.lowerBound + count - out.count)])
        }
        return out
    }

    /// The grid payload of item `id` (a `grid` item with its data in one extent or in `idat`).
    package func grid(_ id: Int, bytes: UnsafeRawBufferPointer, path: String) throws(ImageError) -> HEIFGrid {
        guard let item = items[id], item.type == "grid", let extent = item.extents.first else {
            throw ImageError(.corruptData, "\(path): HEIF item \(id) is not a grid with data")
        }
        let grid = try HEIFGrid(bytes, range: extent, path: path)
        guard grid.rows * grid.columns <= HEIFLimits.maxTiles else {
            throw ImageError(.limitExceeded, "\(path): HEIF grid of \(grid.rows)x\(grid.columns) tiles")
        }
        return grid
    }
}
