#if canImport(Glibc)
    import Glibc
#endif
import Shrink
import ShrinkFuzzSupport

// One binary for every harness and for shrink-sweep (one sanitizer link instead of fifteen: each costs seconds
// of `make test`). It is called by the name it was started as: scripts/fuzz links fuzz-info,
// fuzz-thumbnail-jpeg, ... and shrink-sweep to it. The thumbnail harnesses are one per registered codec.
let thumbnails = CodecRegistry.standard.codecs.map(CodecThumbnailHarness.init)
var harnesses: [String: ([UInt8]) -> Void] = [
    "fuzz-info": InfoHarness.fuzz,
    "fuzz-jpeg-dc": JPEGDCHarness.fuzz,
    "fuzz-heif-container": HEIFContainerHarness.fuzz,
    "fuzz-crop-orient": CropOrientHarness.fuzz,
    "fuzz-pipeline": PipelineHarness.fuzz,
    "fuzz-icc-profile": ICCProfileHarness.fuzz,
    "fuzz-server-url": ServerURLHarness.fuzz,
]
for harness in thumbnails { harnesses[harness.name] = { harness.fuzz($0) } }

// libFuzzer reads the whole command line (argv[0] too, to start itself again), so the name is the program's.
let name = String(CommandLine.arguments[0].split(separator: "/").last ?? "")
// `shrink-fuzz --list` prints each codec harness and the format of its seeds, then `readable` and every format
// the registry reads; `shrink-fuzz --sniff` prints the format the registry recognises in each file named on
// stdin (one per line; `-` for none). scripts/fuzz asks these instead of keeping format lists of its own.
switch name == "shrink-fuzz" ? Array(CommandLine.arguments.dropFirst()) : [] {
case ["--list"]:
    for harness in thumbnails { print("\(harness.name)\t\(harness.codec.format.name)") }
    print("readable\t" + CodecRegistry.standard.readableFormats.map { $0.name }.joined(separator: ","))
    exit(0)
case ["--sniff"]:
    while let path = readLine() {
        let format = (try? ImageBytes(mapping: path)).flatMap { bytes in
            CodecRegistry.standard.codecs.first { $0.sniff(bytes.bytes) }?.format.name
        }
        print(format ?? "-")
    }
    exit(0)
default: break
}
if name == "shrink-sweep" { Sweep.run(Array(CommandLine.arguments.dropFirst())) }
guard let harness = harnesses[name] else {
    let usage =
        "shrink-fuzz: start it through a link named shrink-sweep or one of: "
        + harnesses.keys.sorted().joined(separator: ", ") + "\n"
    _ = usage.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
FuzzDriver.run(harness)
