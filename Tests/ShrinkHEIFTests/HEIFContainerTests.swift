import Testing
import ShrinkCore
@testable import ShrinkHEIF
import ShrinkTestSupport

/// The container parser against the corpus MANIFEST (which records, per HEIF/AVIF file, the primary item's type,
/// `ispe`, grid tiles, `nclx`, `pixi`, `irot`, `imir`, `clap` and the item count as libheif reports them), and
/// against hostile bytes.
@Suite struct HEIFContainerTests {
    /// `key=value` words of a MANIFEST features cell.
    static func fields(_ features: String) -> [String: String] {
        var out: [String: String] = [:]
        for word in features.split(separator: " ") {
            let kv = word.split(separator: "=", maxSplits: 1)
            if kv.count == 2, out[String(kv[0])] == nil { out[String(kv[0])] = String(kv[1]) }
        }
        return out
    }

    static func parse(_ bytes: [UInt8], name: String = "t.heic") throws(ImageError) -> HEIFContainer {
        try bytes.withUnsafeBytes { raw in Result { () throws(ImageError) in try HEIFContainer(bytes: raw, path: name) }
        }.get()
    }

    @Test(.needsCorpus)
    func corpusFilesParseAsLibheifDescribesThem() throws {
        let rows = Corpus.entries.filter {
            ($0.format == "heif" || $0.format == "avif") && $0.features.contains("primary=")
        }
        #expect(rows.count > 50)
        var checked = 0
        for row in rows {
            guard let bytes = Corpus.readBytes(Corpus.path(row.path)) else {
                Issue.record("\(row.path): unreadable")
                continue
            }
            let f = Self.fields(row.features)
            let container: HEIFContainer
            do throws(ImageError) {
                container = try Self.parse(bytes, name: row.path)
            } catch {
                // Only files the references reject may fail to parse.
                #expect(!row.expected.hasPrefix("decodes"), "\(row.path): \(error)")
                continue
            }
            checked += 1
            let primary = container.items[container.primaryID]!
            if let type = f["primary"] { #expect(primary.type == type, "\(row.path)") }
            if let ispe = f["ispe"] {
                let size = try #require(
                    container.size(of: container.primaryID), "\(row.path): no size for ispe=\(ispe)")
                #expect("\(size.width)x\(size.height)" == ispe, "\(row.path)")
            }
            if let tiles = f["grid-tiles"] {
                #expect(container.references("dimg", from: container.primaryID).count == Int(tiles), "\(row.path)")
                let grid = try container.grid(container.primaryID, bytes: bytes.withUnsafeBytes { $0 }, path: row.path)
                #expect(grid.rows * grid.columns == Int(tiles), "\(row.path)")
            }
            if let items = f["items"] { #expect(container.items.count == Int(items), "\(row.path)") }
            let props = container.properties(of: container.primaryID)
            // Orientation from irot/imir as libheif composes them, and the clean aperture's size.
            if container.hasNonEssentialTransform(of: container.primaryID) {
                // Transforms not marked essential: the file is invalid, libheif shows no orientation for it.
                #expect(row.path.contains("essential"), "\(row.path)")
            } else {
                #expect(
                    container.orientation(of: container.primaryID).rawValue == Int(f["orientation"] ?? "1"),
                    "\(row.path)")
            }
            if let clap = f["clap"] {
                let size = try #require(
                    container.size(of: container.primaryID), "\(row.path): no size for clap=\(clap)")
                let kept = container.cleanAperture(of: container.primaryID, size: size)
                #expect(
                    kept.map { "\(Int($0.width))x\(Int($0.height))" } == clap,
                    "\(row.path): \(String(describing: kept))")
            }
            if let rotation = f["irot"] { #expect(props.contains(.rotation(Int(rotation)!)), "\(row.path)") }
            if let axis = f["imir"] { #expect(props.contains(.mirror(axis: Int(axis)!)), "\(row.path)") }
            if let nclx = f["nclx"] {
                let parts = nclx.split(separator: "/")
                let expected = HEIFColor.nclx(
                    primaries: Int(parts[0])!, transfer: Int(parts[1])!, matrix: Int(parts[2])!,
                    fullRange: parts[3] == "full")
                let colors = container.items.values.flatMap { container.properties(of: $0.id) }
                #expect(colors.contains(.color(expected)), "\(row.path)")
            }
        }
        #expect(checked > 50)
        // Every other HEIF/AVIF file of the corpus, damaged ones included: parsed or a typed error, never a trap.
        // Files the references decode must parse.
        var others = 0, decodable = 0
        for row in Corpus.entries
        where (row.format == "heif" || row.format == "avif") && !row.features.contains("primary=") {
            guard let bytes = Corpus.readBytes(Corpus.path(row.path)) else {
                Issue.record("\(row.path): unreadable")
                continue
            }
            others += 1
            if row.expected.hasPrefix("decodes") { decodable += 1 }
            do throws(ImageError) {
                _ = try Self.parse(bytes, name: row.path)
            } catch {
                #expect(!row.expected.hasPrefix("decodes"), "\(row.path): \(error)")
            }
        }
        #expect(others > 30 && decodable > 10) // 66 and 15 in the corpus now
    }

    @Test(.needsCorpus)
    func hevcItemsSplitIntoNALUnitsAfterTheirParameterSets() throws {
        var tiles = 0
        for row in Corpus.entries where row.format == "heif" && row.expected.hasPrefix("decodes") {
            guard let bytes = Corpus.readBytes(Corpus.path(row.path)), let c = try? Self.parse(bytes, name: row.path)
            else {
                Issue.record("\(row.path): a file the references decode is unreadable or does not parse")
                continue
            }
            try bytes.withUnsafeBytes { raw in
                for item in c.items.values where item.type == "hvc1" {
                    guard
                        case .hevcConfiguration(let range)? = c.properties(of: item.id).first(where: {
                            if case .hevcConfiguration = $0 { true } else { false }
                        })
                    else { Issue.record("\(row.path): hvc1 item \(item.id) without hvcC"); continue }
                    let config = try HEVCConfiguration(raw, range: range, path: row.path)
                    #expect([1, 2, 4].contains(config.lengthSize) && config.bitDepthLuma >= 8, "\(row.path)")
                    let types = Set(config.parameterSets.map(\.type))
                    #expect(types.isSuperset(of: [32, 33, 34]), "\(row.path): parameter sets \(types)")
                    let data = try c.data(of: item.id, bytes: raw, maxBytes: 64 << 20, path: row.path)
                    let units = try data.withUnsafeBytes { d in
                        Result { () throws(ImageError) in try config.nalUnits(in: d, path: row.path) }
                    }.get()
                    #expect(
                        !units.isEmpty && units.reduce(0) { $0 + $1.count + config.lengthSize } == data.count,
                        "\(row.path)")
                    tiles += 1
                }
            }
        }
        #expect(tiles > 100) // iPhone photos are grids of 48 tiles
    }

    /// A minimal file: ftyp, meta (hdlr pict, pitm 1, iinf with one hvc1 item, iloc with one extent, iprp with
    /// ispe 640x480 and irot 90), and `data` after it.
    static func file(items: Int = 1, extentLength: Int = 4, itemCount: Int? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(payload.count + 8) + Array(type.utf8) + payload }
        func full(_ type: String, _ version: Int, _ payload: [UInt8]) -> [UInt8] {
            box(type, [UInt8(version), 0, 0, 0] + payload)
        }
        let ftyp = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8))
        let infes = (1...items).flatMap { full("infe", 2, u16($0) + u16(0) + Array("hvc1".utf8) + [0]) }
        let iinf = full("iinf", 0, u16(itemCount ?? items) + infes)
        let ipco = box("ipco", full("ispe", 0, u32(640) + u32(480)) + box("irot", [1]))
        let ipma = full("ipma", 0, u32(1) + u16(1) + [2, 0x81, 0x02])
        func meta(dataOffset: Int) -> [UInt8] {
            let iloc = full(
                "iloc", 0, [0x44, 0x00] + u16(1) + u16(1) + u16(0) + u16(1) + u32(dataOffset) + u32(extentLength))
            return full(
                "meta", 0,
                full("hdlr", 0, u32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                    + full("pitm", 0, u16(1)) + iinf + iloc + box("iprp", ipco + ipma))
        }
        let before = ftyp.count + meta(dataOffset: 0).count
        return ftyp + meta(dataOffset: before + 8) + box("mdat", [1, 2, 3, 4])
    }

    @Test func aMinimalFileParses() throws {
        let c = try Self.parse(Self.file())
        #expect(c.majorBrand == "heic" && c.compatibleBrands == ["mif1", "heic"] && c.primaryID == 1)
        let item = try #require(c.items[1])
        #expect(item.type == "hvc1" && item.dataCount == 4)
        #expect(c.size(of: 1) == PixelSize(width: 640, height: 480))
        #expect(c.properties(of: 1) == [.size(width: 640, height: 480), .rotation(90)])
        #expect(item.properties.map(\.essential) == [true, false])
    }

    @Test func hostileLengthsAndCountsAreTypedErrors() {
        // Data past the end of the file, more items than the limit, and every truncation.
        #expect(throws: ImageError.self) { _ = try Self.parse(Self.file(extentLength: 1 << 20)) }
        #expect(throws: ImageError.self) { _ = try Self.parse(Self.file(itemCount: 70000)) }
        let good = Self.file(items: 70) // more than 64 tiles' worth of items is fine
        #expect((try? Self.parse(good))?.items.count == 70)
        // Every cut is refused: before the end of `meta` (byte 1663 of 1675) the boxes are incomplete, after it
        // the item's extent in `mdat` lies past the end of the data.
        func u32(_ at: Int) -> Int { good[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(u32(0) + u32(u32(0)) == 1663 && good.count == 1675) // ftyp + meta, then an mdat of 12 bytes
        for n in 0..<good.count {
            do throws(ImageError) {
                _ = try Self.parse(Array(good[0..<n]))
                Issue.record("a file cut at \(n) of \(good.count) bytes parsed")
            } catch {
                #expect(
                    [ImageError.Code.corruptData, .truncated, .unsupportedFormat].contains(error.code),
                    "cut at \(n): \(error)")
            }
        }
        // Deterministic: the flip at 24 turns the size of `meta` (bytes 24..<28, after the 24-byte ftyp) from
        // 1639 into 0xA5000667, which does not fit the file.
        var flipped = good
        for i in stride(from: 9, to: flipped.count, by: 5) { flipped[i] ^= 0xA5 }
        do throws(ImageError) {
            _ = try Self.parse(flipped)
            Issue.record("a file with every fifth byte from 9 flipped parsed")
        } catch {
            #expect(error.code == .corruptData, "\(error)")
        }
    }
}
