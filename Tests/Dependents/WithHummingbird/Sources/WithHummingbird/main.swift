import Hummingbird
import Shrink

// A router whose one route answers with a thumbnail's size: both packages linked into one binary.
let router = Router()
router.get("/size") { _, _ -> String in
    let source = try ImageSource(bytes: try PNGEncoder().encode(PixelBuffer(format: .gray8, size: Size(width: 40, height: 20),
                                                                            bytes: [UInt8](repeating: 128, count: 800))))
    return "\(try source.thumbnail(maxPixelSize: 10).size)"
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
_ = app
let thumb = try ImageSource(bytes: try PNGEncoder().encode(PixelBuffer(format: .gray8, size: Size(width: 40, height: 20),
                                                                       bytes: [UInt8](repeating: 128, count: 800))))
    .thumbnail(maxPixelSize: 10)
print("WithHummingbird: Shrink reads \(CodecRegistry.standard.readableFormats.map(\.name).joined(separator: ", ")); thumbnail \(thumb.size)")
