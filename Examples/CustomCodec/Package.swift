// swift-tools-version: 6.1
// A codec from outside Shrink, through its public API only: binary PPM (P6, 8-bit) read and written.
// - PPMCodec: the decoder (a header read, a route with its cost, rows streamed top to bottom), the encoder, and
//   their registration as a `Codec` (`CodecRegistry.standard.adding(.ppm)`).
// - custom-codec: `custom-codec IN.ppm OUT.ppm --size N` makes a thumbnail through an ImagePipeline whose
//   registry holds the codec, and prints one JSON line: the route, the decoder, predicted and measured peak bytes.
// scripts/check-examples builds it and runs it on a PPM it makes, checking the output with Pillow.
import PackageDescription

let package = Package(
    name: "CustomCodec",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Shrink", path: "../..")],
    targets: [
        .target(name: "PPMCodec", dependencies: [.product(name: "Shrink", package: "Shrink")]),
        .executableTarget(
            name: "custom-codec",
            dependencies: ["PPMCodec", .product(name: "Shrink", package: "Shrink")]
        ),
    ]
)
