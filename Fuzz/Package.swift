// swift-tools-version: 6.0
// libFuzzer harnesses for Shrink, kept out of the main package so its users never build them. scripts/fuzz builds
// them with the sanitizer and coverage flags on the command line (see README.md) and runs them.
import PackageDescription

// One executable, shrink-fuzz, holds every harness and shrink-sweep; scripts/fuzz links each harness's name
// (fuzz-info, fuzz-thumbnail-jpeg, ...) and shrink-sweep to it, and the name it is started by picks the harness
// (one sanitizer link instead of fifteen).
let package = Package(
    name: "ShrinkFuzz",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "shrink-fuzz", targets: ["ShrinkFuzz"])],
    dependencies: [.package(name: "Shrink", path: "..")],
    targets: [
        // C: hands the command line and a Swift callback to libFuzzer's LLVMFuzzerRunDriver.
        .target(name: "CShrinkFuzzDriver"),
        .target(
            name: "ShrinkFuzzSupport", dependencies: [.product(name: "Shrink", package: "Shrink"), "CShrinkFuzzDriver"]),
        // The harnesses (the server's URL harness reaches the request parsers through ShrinkServerURL's
        // `@_spi(Fuzzing)` entry) and shrink-sweep, thumbnails of the files it is given, sanitized like them
        // (scripts/check-sanitizers).
        .executableTarget(
            name: "ShrinkFuzz",
            dependencies: [
                "ShrinkFuzzSupport", .product(name: "Shrink", package: "Shrink"),
                .product(name: "ShrinkServerURL", package: "Shrink"),
            ]),
    ]
)
