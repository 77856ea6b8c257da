import Hummingbird
import Shrink

// GET /thumbnails/NAME?size=N: the photo NAME from one folder as a WebP, N px (256 by default) on its long side.
let environment = Environment()
let photos = environment.get("PHOTOS") ?? "photos"
let port = environment.get("PORT", as: Int.self) ?? 8080

// One pipeline for the process: a decode starts when the bytes it is predicted to hold fit the budget,
// identical requests in flight share one decode, and finished thumbnails stay in its memory cache.
let pipeline = ImagePipeline(configuration: .init(budget: 256 << 20))

let router = Router()
router.get("/thumbnails/:name") { request, context -> Response in
    let name = try context.parameters.require("name")
    guard !name.hasPrefix("."), !name.contains("/") else { throw HTTPError(.notFound) }
    let size = request.uri.queryParameters.get("size", as: Int.self) ?? 256
    guard (16...2048).contains(size) else { throw HTTPError(.badRequest, message: "size must be 16...2048") }
    let thumbnail = ImageRequest(path: "\(photos)/\(name)", target: .maxPixelSize(size))
    do throws(ImageError) {
        let result = try await pipeline.encodedImage(for: thumbnail, as: OutputSettings(format: .webp, quality: 75))
        return Response(status: .ok,
                        headers: [.contentType: result.image.mimeType, .eTag: "\"\(result.image.validator)\""],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.image.bytes)))
    } catch {
        // A stable code maps to a status; the reason leaves out the server's path.
        throw HTTPError(.init(code: error.code.httpStatus), message: error.reason)
    }
}

let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
