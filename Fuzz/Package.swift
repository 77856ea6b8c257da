// swift-tools-version: 6.0
// libFuzzer harnesses for Shrink, kept out of the main package so its users never build them. scripts/fuzz builds
// them with the sanitizer and coverage flags on the command line (see README.md) and runs them.
import PackageDescription

/// Executable name → target directory, one libFuzzer binary per public entry point.
let harnesses: [(product: String, target: String)] = [
    ("fuzz-info", "FuzzInfo"),
    ("fuzz-jpeg-thumbnail", "FuzzJPEGThumbnail"),
    ("fuzz-progressive-dc", "FuzzProgressiveDC"),
    ("fuzz-png-thumbnail", "FuzzPNGThumbnail"),
    ("fuzz-webp-thumbnail", "FuzzWebPThumbnail"),
    ("fuzz-gif-thumbnail", "FuzzGIFThumbnail"),
    ("fuzz-heif-container", "FuzzHEIFContainer"),
    ("fuzz-heif-thumbnail", "FuzzHEIFThumbnail"),
    ("fuzz-avif-thumbnail", "FuzzAVIFThumbnail"),
    ("fuzz-crop-orient", "FuzzCropOrient"),
    ("fuzz-pipeline", "FuzzPipeline"),
    ("fuzz-icc-profile", "FuzzICCProfile"),
    ("fuzz-server-url", "FuzzServerURL"),
]

let package = Package(
    name: "ShrinkFuzz",
    platforms: [.macOS(.v15)],
    products: harnesses.map { .executable(name: $0.product, targets: [$0.target]) }
        + [.executable(name: "shrink-sweep", targets: ["ShrinkSweep"])],
    dependencies: [.package(name: "Shrink", path: "..")],
    targets: [
        // C: hands the command line and a Swift callback to libFuzzer's LLVMFuzzerRunDriver.
        .target(name: "CShrinkFuzzDriver"),
        .target(name: "ShrinkFuzzSupport", dependencies: [.product(name: "Shrink", package: "Shrink"), "CShrinkFuzzDriver"]),
        // Not a harness: thumbnails of the files it is given, sanitized like the harnesses (scripts/check-sanitizers).
        .executableTarget(name: "ShrinkSweep", dependencies: [.product(name: "Shrink", package: "Shrink")]),
    ] + harnesses.map { harness in
        // The server's URL harness reaches the request parsers through ShrinkServerURL's `@_spi(Fuzzing)` entry.
        let server: [Target.Dependency] = harness.target == "FuzzServerURL" ? [.product(name: "ShrinkServerURL", package: "Shrink")] : []
        return .executableTarget(name: harness.target, dependencies: ["ShrinkFuzzSupport"] + server)
    }
)
