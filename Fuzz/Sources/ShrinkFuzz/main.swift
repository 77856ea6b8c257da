#if canImport(Glibc)
    import Glibc
#endif
import ShrinkFuzzSupport

// One binary for every harness and for shrink-sweep (one sanitizer link instead of fifteen: each costs seconds
// of `make test`). It is called by the name it was started as: scripts/fuzz links fuzz-info, fuzz-jpeg-thumbnail,
// ... and shrink-sweep to it.
let harnesses: [String: ([UInt8]) -> Void] = [
    "fuzz-info": InfoHarness.fuzz,
    "fuzz-jpeg-thumbnail": JPEGThumbnailHarness.fuzz,
    "fuzz-jpeg-dc": JPEGDCHarness.fuzz,
    "fuzz-png-thumbnail": PNGThumbnailHarness.fuzz,
    "fuzz-webp-thumbnail": WebPThumbnailHarness.fuzz,
    "fuzz-gif-thumbnail": GIFThumbnailHarness.fuzz,
    "fuzz-heif-container": HEIFContainerHarness.fuzz,
    "fuzz-heif-thumbnail": HEIFThumbnailHarness.fuzz,
    "fuzz-avif-thumbnail": AVIFThumbnailHarness.fuzz,
    "fuzz-crop-orient": CropOrientHarness.fuzz,
    "fuzz-pipeline": PipelineHarness.fuzz,
    "fuzz-icc-profile": ICCProfileHarness.fuzz,
    "fuzz-server-url": ServerURLHarness.fuzz,
]

// libFuzzer reads the whole command line (argv[0] too, to start itself again), so the name is the program's.
let name = String(CommandLine.arguments[0].split(separator: "/").last ?? "")
if name == "shrink-sweep" { Sweep.run(Array(CommandLine.arguments.dropFirst())) }
guard let harness = harnesses[name] else {
    let usage =
        "shrink-fuzz: start it through a link named shrink-sweep or one of: "
        + harnesses.keys.sorted().joined(separator: ", ") + "\n"
    _ = usage.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
FuzzDriver.run(harness)
