// The README's library snippets, verbatim (scripts/check-examples runs this in a folder holding photo.jpg and
// checks what it writes and prints).
import Shrink

/// A batch tool's work: synchronous calls on the tool's own thread.
func makeThumbnails(of path: String) throws(ImageError) {
    let source = try ImageSource(path: path)                 // maps the file, reads the header only
    print(source.info.displayedSize)                         // e.g. 3200x7680 after EXIF orientation 6
    print(source.info.decodedBytes(as: .rgba8))              // what a naive decode would hold

    let plan = try source.plan(.maxPixelSize(400))           // from the header: nothing decoded yet
    print(plan.outputSize, plan.prescale, source.predictedPeakBytes(for: plan))

    let thumb = try source.thumbnail(maxPixelSize: 400)      // long side 400, oriented
    print(thumb.plan.prescale, thumb.pixels.format)          // 4 for 6000x4000, yuv420: 1.5 B/px from the decoder
    try thumb.write(to: "thumb.jpg")                         // format from the extension; YUV encodes as is

    // A region in displayed pixels (after EXIF orientation), reduced; rows below it are never decoded:
    let face = try source.image(.maxPixelSize(128), region: PixelRect(x: 100, y: 200, width: 512, height: 512))
    try face.write(to: "face.png")

    // Pixel formats by content (the default), for display, or exactly one format:
    let bgra = try source.thumbnail(maxPixelSize: 400, options: ThumbnailOptions(pixelFormat: .displayReady))
    let rgba = try source.thumbnail(maxPixelSize: 400, options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
    print(bgra.pixels.format, rgba.pixels.bytesPerRow)

    let square = try source.thumbnail(size: PixelSize(width: 256, height: 256), fit: .cover,
                                      options: ThumbnailOptions(mode: .fast))
    let jpeg = try square.encoded(as: .jpeg(.init(quality: 80, progressive: true)))
    print(jpeg.count)
}

try makeThumbnails(of: "photo.jpg")

let avatar = try await ImageSource(path: "photo.jpg").thumbnail(maxPixelSize: 128, on: .shared)
print("avatar", avatar.size)

let pipeline = ImagePipeline(configuration: .init(budget: 256 << 20,      // bytes decodes and caches may hold
                                                  diskCache: try DiskCache(directory: "cache/thumbnails")))
let request = ImageRequest(path: "photo.jpg", target: .box(PixelSize(width: 256, height: 256), fit: .inside))
let response = try await pipeline.image(for: request)   // identical requests in flight share one decode
print(response.telemetry.origin, response.telemetry.predictedPeakBytes, response.telemetry.queueWait)

let bytes = try await pipeline.encodedImage(for: request, as: OutputSettings(format: .webp, quality: 75))
print(bytes.image.mimeType, bytes.image.validator)     // encoded once per coalesced job, inside its budget charge

let task = pipeline.imageTask(with: request)            // a handle: task.priority = .high, task.cancel(), await task.response
let prefetcher = ImagePrefetcher(pipeline: pipeline)    // low priority, warms the memory (or disk) cache
let nextRows: [ImageRequest] = []                       // the requests of the rows about to scroll in
prefetcher.startPrefetching(with: nextRows)
print(pipeline.ledger.runningCharge, pipeline.ledger.cachedBytes)   // one ledger of bytes held

print("reason", thumbnailOrReason("photo.jpg"))
print("reason", thumbnailOrReason("missing.jpg"))

func thumbnailOrReason(_ upload: String) -> String {
    do throws(ImageError) {
        let source = try ImageSource(path: upload, limits: ImageLimits(maxPixels: 50_000_000))
        return "\(try source.thumbnail(maxPixelSize: 256).size)"
    } catch {
        return "\(error.code.httpStatus) \(error.reason)"      // e.g. 413 image is 20000x20000 (...), above ...
    }
}
