import Shrink
import ShrinkHEIF

/// Writes small HEIF files box by box, for derived images (`iden`, `iovl`) and thumbnail items no corpus file has:
/// coded items taken from other files (their configuration boxes and coded bytes) and items over them.
public struct TestHEIF {
    /// A file's primary coded item: its type (`hvc1`, `av01`), configuration box, `ispe` size and coded bytes.
    public struct CodedItem {
        public let type: String
        public let config: [UInt8]
        public let size: PixelSize
        public let data: [UInt8]
    }

    /// An item: its type, the properties it is associated with (indices into ``properties``, from 1, and
    /// whether essential), the items it derives from (`dimg`), the items it is a thumbnail of (`thmb`), and its
    /// data (stored in `mdat`).
    public struct Item {
        public var type: String
        public var properties: [(index: Int, essential: Bool)]
        public var derivedFrom: [Int]
        public var thumbnailOf: [Int]
        public var data: [UInt8]
        public init(
            type: String, properties: [(index: Int, essential: Bool)], derivedFrom: [Int] = [],
            thumbnailOf: [Int] = [], data: [UInt8] = []
        ) {
            self.type = type
            self.properties = properties
            self.derivedFrom = derivedFrom
            self.thumbnailOf = thumbnailOf
            self.data = data
        }
    }

    public var majorBrand: String
    /// Whole property boxes (size and type included), in `ipco` order.
    public var properties: [[UInt8]] = []
    /// Items with IDs 1, 2, … in order.
    public var items: [Item] = []
    public var primary: Int

    public init(majorBrand: String, primary: Int) {
        self.majorBrand = majorBrand
        self.primary = primary
    }

    /// A box of `type` around `payload`.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// A full box (version and flags first).
    public static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).dropFirst()) + payload)
    }

    public static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    public static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    /// `ispe`, `irot` (quarter turns anticlockwise) and `iovl`'s payload (canvas fill as 16-bit RGBA, size,
    /// then each image's offset).
    public static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", be32(width) + be32(height)) }
    public static func irot(_ quarterTurns: Int) -> [UInt8] { box("irot", [UInt8(quarterTurns & 3)]) }
    public static func overlayPayload(fill: [Int], width: Int, height: Int, offsets: [(x: Int, y: Int)]) -> [UInt8] {
        [0, 0] + fill.flatMap { be16($0) } + be16(width) + be16(height)
            + offsets.flatMap { be16($0.x & 0xFFFF) + be16($0.y & 0xFFFF) }
    }

    /// The file's bytes: `ftyp`, `meta` (`hdlr`, `pitm`, `iinf`, `iloc`, `iref`, `iprp`), `mdat`.
    public func bytes() -> [UInt8] {
        let T = TestHEIF.self
        let ftyp = T.box("ftyp", Array(majorBrand.utf8) + T.be32(0) + Array(majorBrand.utf8) + Array("mif1miaf".utf8))
        func meta(mdatStart: Int) -> [UInt8] {
            let hdlr = T.fullBox("hdlr", T.be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            let pitm = T.fullBox("pitm", T.be16(primary))
            let iinf = T.fullBox(
                "iinf",
                T.be16(items.count)
                    + items.enumerated().flatMap { i, item in
                        T.fullBox("infe", version: 2, T.be16(i + 1) + T.be16(0) + Array(item.type.utf8) + [0])
                    })
            var offset = mdatStart
            let iloc = T.fullBox(
                "iloc",
                [0x44, 0x00] + T.be16(items.count)
                    + items.enumerated().flatMap { i, item -> [UInt8] in
                        defer { offset += item.data.count }
                        let extent = item.data.isEmpty ? [] : T.be32(offset) + T.be32(item.data.count)
                        return T.be16(i + 1) + T.be16(0) + T.be16(item.data.isEmpty ? 0 : 1) + extent
                    })
            func reference(_ type: String, from item: Int, to targets: [Int]) -> [UInt8] {
                targets.isEmpty
                    ? [] : T.box(type, T.be16(item) + T.be16(targets.count) + targets.flatMap { T.be16($0) })
            }
            let refs = items.enumerated().flatMap { i, item in
                reference("dimg", from: i + 1, to: item.derivedFrom)
                    + reference("thmb", from: i + 1, to: item.thumbnailOf)
            }
            let iref = refs.isEmpty ? [] : T.fullBox("iref", refs)
            let ipma = T.fullBox(
                "ipma",
                T.be32(items.count)
                    + items.enumerated().flatMap { i, item in
                        T.be16(i + 1) + [UInt8(item.properties.count)]
                            + item.properties.map { UInt8($0.index) | ($0.essential ? 0x80 : 0) }
                    })
            let iprp = T.box("iprp", T.box("ipco", properties.flatMap { $0 }) + ipma)
            return T.fullBox("meta", hdlr + pitm + iinf + iloc + iref + iprp)
        }
        let size = meta(mdatStart: 0).count
        let mdat = T.box("mdat", items.flatMap(\.data))
        return ftyp + meta(mdatStart: ftyp.count + size + 8) + mdat
    }

    /// The primary coded item of the HEIF or AVIF file in `bytes`. Fails when the container does not parse or
    /// the primary has no size or configuration.
    public static func codedItem(of bytes: [UInt8], name: String) throws -> CodedItem {
        try bytes.withUnsafeBytes { raw in
            let c = try HEIFContainer(bytes: raw, path: name)
            var config: [UInt8] = []
            for property in c.properties(of: c.primaryID) {
                switch property {
                case .hevcConfiguration(let r): config = box("hvcC", Array(raw[r]))
                case .av1Configuration(let r): config = box("av1C", Array(raw[r]))
                default: break
                }
            }
            guard let item = c.items[c.primaryID], let size = c.size(of: c.primaryID), !config.isEmpty else {
                throw ImageError(.corruptData, "\(name): no coded primary item with a size and configuration")
            }
            return CodedItem(type: item.type, config: config, size: size, data: item.extents.flatMap { Array(raw[$0]) })
        }
    }

    /// An `iden` image over `item` that turns it `quarterTurns` anticlockwise (its own essential `irot`),
    /// carrying `icc` (a `colr` prof) when given.
    public static func identity(of item: CodedItem, majorBrand: String, quarterTurns: Int, icc: [UInt8]? = nil)
        -> [UInt8]
    {
        var file = TestHEIF(majorBrand: majorBrand, primary: 2)
        file.properties = [item.config, ispe(item.size.width, item.size.height), irot(quarterTurns)]
        var idenProperties: [(index: Int, essential: Bool)] = [(2, false), (3, true)]
        if let icc {
            file.properties.append(box("colr", Array("prof".utf8) + icc))
            idenProperties.append((4, false))
        }
        file.items = [
            Item(type: item.type, properties: [(1, true), (2, false)], data: item.data),
            Item(type: "iden", properties: idenProperties, derivedFrom: [1]),
        ]
        return file.bytes()
    }

    /// An `iovl` canvas showing `item` twice side by side, the second `gap` pixels to the right and down, on
    /// a canvas filled with `fill` (16-bit RGBA) around them.
    public static func overlay(twice item: CodedItem, majorBrand: String, gap: Int, fill: [Int]) -> [UInt8] {
        let (w, h) = (item.size.width, item.size.height)
        var file = TestHEIF(majorBrand: majorBrand, primary: 3)
        file.properties = [item.config, ispe(w, h), ispe(2 * w + gap, h + gap / 2)]
        let payload = overlayPayload(
            fill: fill, width: 2 * w + gap, height: h + gap / 2, offsets: [(0, 0), (w + gap, gap / 2)])
        file.items = [
            Item(type: item.type, properties: [(1, true), (2, false)], data: item.data),
            Item(type: item.type, properties: [(1, true), (2, false)], data: item.data),
            Item(type: "iovl", properties: [(3, false)], derivedFrom: [1, 2], data: payload),
        ]
        return file.bytes()
    }
}
