// custom-codec IN.ppm OUT.ppm --size N: a thumbnail of a binary PPM, written as a PPM whose long side is N, made
// by an ImagePipeline whose registry holds PPMCodec. Prints one JSON line: the route the decode took, the
// decoder, and the peak bytes predicted from the header beside the peak measured while it ran.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PPMCodec
import Shrink

let usage = "usage: custom-codec IN.ppm OUT.ppm --size N"

func fail(_ message: String) -> Never {
    let line = Array("custom-codec: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(message == usage ? 64 : 1)
}

var positional: [String] = []
var size: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--size":
        guard let value = arguments.popFirst(), let n = Int(value), n > 0 else {
            fail("--size takes a positive number")
        }
        size = n
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        positional.append(argument)
    }
}
guard positional.count == 2, let size else { fail(usage) }
let (input, output) = (positional[0], positional[1])

let codecs = CodecRegistry.standard.adding(.ppm)
let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(memoryCache: nil, codecs: codecs))
let request = ImageRequest(path: input, target: .maxPixelSize(size))
guard let format = codecs.writableFormats.first(where: { $0.fileExtensions.contains { output.hasSuffix(".\($0)") } })
else {
    fail("\(output): cannot tell the output format (\(codecs.writableFormats.map(\.name).joined(separator: ", ")))")
}
do {
    let response = try await pipeline.encodedImage(for: request, as: OutputSettings(format: format))
    guard let file = fopen(output, "wb") else { fail("\(output): cannot be written") }
    let written = response.image.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    guard fclose(file) == 0, written == response.image.bytes.count else { fail("\(output): cannot be written") }
    let t = response.telemetry
    print(
        "{\"input\":\"\(input)\",\"output\":\"\(output)\",\"width\":\(response.image.size.width),"
            + "\"height\":\(response.image.size.height),\"route\":\"\(t.decodePath?.name ?? "none")\","
            + "\"decoder\":\"\(t.decoder ?? "unknown")\",\"predictedPeakBytes\":\(t.predictedPeakBytes),"
            + "\"measuredPeakBytes\":\(t.measuredPeakBytes)}")
} catch {
    fail(error.description)
}
