import ShrinkCore
import ShrinkJPEG
import ShrinkTIFF

/// A camera RAW file shown through the previews its camera embedded, as ImageIO makes thumbnails of one: the largest
/// preview is the image, its smaller previews of the same shape are its reduced sizes, and each preview is read by
/// its own codec (JPEG previews by the JPEG codec, with DCT scaling; uncompressed ones by the TIFF codec), so a
/// thumbnail decodes the cheapest preview, at the cheapest scale, that covers it. The RAW's own orientation tag is
/// applied once (a RAF's, kept in its embedded JPEG). Sensor data is never developed: a file without a preview Shrink
/// reads is refused. Opening reads the file's directories and each preview's header, nothing of pixel size.
package struct RAWDecoder: ImageDecoding {
    /// The name used in error messages.
    package let path: String
    package let info: ImageInfo
    /// The kind of RAW file.
    package let kind: RAWKind
    /// The previews that opened and have the image's shape, smallest first; the last is the image.
    private let previews: [any ImageDecoding]
    /// Each offered scale denominator's preview (an index in ``previews``) and that preview's own denominator.
    private let choices: [Int: (preview: Int, denominator: Int)]

    /// Reads the file's structure and each preview's header. Fails with `.unsupportedFormat` (not a RAW file Shrink
    /// recognises), `.unsupportedFeature` (no preview that opens), or as a preview fails for `.limitExceeded`; a
    /// preview that does not open for another reason is left out with a warning.
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.path = path
        guard let kind = RAWKind(sniffing: bytes.bytes) else {
            throw ImageError(.unsupportedFormat, "\(path): not a camera RAW file Shrink recognises")
        }
        self.kind = kind
        var found: [RAWPreview] = [], warnings: [String] = []
        var orientation: Int?, camera: [String?] = [], sensor: PixelSize?
        switch kind {
        case .raf:
            let header = RAFHeader(bytes.bytes)
            found = header.preview.map { [$0] } ?? []
            camera = ["FUJIFILM", header.model]
        case .crw:
            let heap = CIFFHeap(bytes.bytes)
            found = heap.previews
            orientation = heap.orientation
            camera = [heap.make, heap.model]
        case .cr3:
            let boxes = CR3Container(bytes.bytes)
            found = boxes.previews
            orientation = boxes.orientation
            camera = [boxes.make, boxes.model]
        default:
            let structure = RAWStructure(tiff: bytes.bytes, kind: kind)
            found = structure.previews
            orientation = structure.orientation
            camera = [structure.make, structure.model]
            sensor = structure.sensor
            warnings += structure.problems
        }
        // Each preview that opens, and the EXIF thumbnail a JPEG preview carries (LibRaw and exiftool offer it too).
        var opened: [(origin: String, kind: String, bytes: Int, decoder: any ImageDecoding)] = []
        for preview in found {
            let name = "\(path) (preview in \(preview.origin))"
            do throws(ImageError) {
                switch preview.encoding {
                case .jpeg:
                    let jpeg = try JPEGDecoder(
                        bytes: ImageBytes(slice: preview.range, of: bytes, name: name), path: name, limits: limits)
                    opened.append((preview.origin, "JPEG", preview.range.count, jpeg))
                    if let thumbnail = jpeg.embeddedThumbnailBytes() {
                        let origin = "the EXIF data of the preview in \(preview.origin)"
                        let inner = "\(path) (thumbnail in \(origin))"
                        if let decoder = try? JPEGDecoder(
                            bytes: ImageBytes(thumbnail, name: inner), path: inner, limits: limits)
                        {
                            opened.append((origin, "JPEG", thumbnail.count, decoder))
                        }
                    }
                case .uncompressed(let page):
                    let tiff = try TIFFDecoder(bytes: bytes, path: name, limits: limits, page: page)
                    opened.append((preview.origin, "RGB", preview.range.count, tiff))
                }
            } catch {
                if error.code == .limitExceeded { throw error }
                warnings.append("the preview in \(preview.origin) is not read: \(error.reason)")
            }
        }
        guard let main = opened.max(by: { $0.decoder.info.size.pixelCount < $1.decoder.info.size.pixelCount }) else {
            throw ImageError(
                .unsupportedFeature,
                "\(path): the \(kind.label) file holds no preview Shrink can read (\(found.isEmpty ? "none found" : warnings.joined(separator: "; "))); Shrink shows RAW files through their embedded previews and does not develop sensor data"
            )
        }
        let full = main.decoder.info.size
        let sameShape = opened.filter {
            let s = $0.decoder.info.size
            return s.pixelCount < full.pixelCount && s.hasShape(of: full)
        }
        previews =
            sameShape.map(\.decoder).sorted { $0.info.size.pixelCount < $1.info.size.pixelCount } + [main.decoder]
        choices = Self.choices(previews)

        var info = main.decoder.info
        info.format = .raw
        if kind == .raf, let header = opened.first {
            // A RAF keeps its orientation in the EXIF data of the JPEG its header points at.
            info.orientation = header.decoder.info.orientation
            info.orientationSource = "EXIF of the RAF's JPEG"
        } else {
            info.orientation = ImageOrientation(exifValue: orientation ?? 1)
            info.orientationSource = kind == .cr3 ? "CMT1 (IFD0)" : kind == .crw ? "CIFF image info" : "IFD0"
        }
        // The maker, then the model, unless the model names the maker itself ("Canon EOS 30D").
        let names = camera.compactMap { $0 }
        let model =
            names.count == 2 && names[1].lowercased().hasPrefix(names[0].lowercased())
            ? names[1] : names.joined(separator: " ")
        info.features =
            [kind.label] + (model.isEmpty ? [] : [model]) + (sensor.map { ["sensor \($0)"] } ?? [])
            + opened.map { "preview \($0.decoder.info.size) \($0.kind) in \($0.origin), \($0.bytes) bytes" }
        info.layout = "\(kind.label), shown through its \(main.decoder.info.size) preview (of \(opened.count))"
        info.warnings += warnings
        self.info = info
    }

    /// For each scale denominator a preview serves, the preview and its own denominator: the image's own
    /// denominators stand for themselves; a smaller preview at one of its own scales stands for the least denominator
    /// it covers, taking it over from the image (the smaller file decodes for less).
    private static func choices(_ previews: [any ImageDecoding]) -> [Int: (preview: Int, denominator: Int)] {
        let last = previews.count - 1, full = previews[last].info.size
        var choices: [Int: (preview: Int, denominator: Int)] = [:]
        for d in previews[last].scaleDenominators { choices[d] = (last, d) }
        for (i, preview) in previews.enumerated().dropLast().reversed() {
            for d in preview.scaleDenominators {
                let s = preview.scaledSize(denominator: d)
                guard s.width > 0, s.height > 0 else { continue }
                let covered = max((full.width + s.width - 1) / s.width, (full.height + s.height - 1) / s.height)
                choices[max(2, covered)] = (i, d)
            }
        }
        return choices
    }

    private var image: any ImageDecoding { previews[previews.count - 1] }

    /// The image's ICC profile (its EXIF is the preview's, not the RAW's: left out).
    package func metadata() throws(ImageError) -> ImageMetadata {
        ImageMetadata(iccProfile: try image.metadata().iccProfile)
    }

    package var scaleDenominators: [Int] { choices.keys.sorted() }

    package func scaledSize(denominator: Int) -> PixelSize {
        let (i, d) = choices[denominator] ?? (previews.count - 1, 1)
        return previews[i].scaledSize(denominator: d)
    }

    /// The image's 8-bit format.
    package var outputFormat: PixelFormat { image.outputFormat }

    /// The chosen preview's own route: the image's as it is; a smaller preview's spanning the whole image (uniform
    /// geometry).
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let (i, d) = choices[request.scaleDenominator] ?? (previews.count - 1, 1)
        if i == previews.count - 1 {
            var own = request
            own.scaleDenominator = d
            return previews[i].route(own)
        }
        let own = previews[i].route(RouteRequest(scaleDenominator: d, wantsSixteenBit: request.wantsSixteenBit))
        return DecodeRoute(
            path: own.path, output: own.output, decodedSize: own.decodedSize, workingBytes: own.workingBytes,
            stateBytes: own.stateBytes, geometry: .uniform, decoder: own.decoder
        ) { options, monitor throws(ImageError) in try own.start(options: options, monitor: monitor) }
    }
}
