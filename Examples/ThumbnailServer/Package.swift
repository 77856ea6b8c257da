// swift-tools-version: 6.1
// A consumer of Shrink as the README describes it: an app that depends on Shrink and on Hummingbird.
// - ThumbnailServer: the README's server snippet (Sources/ThumbnailServer/main.swift), verbatim.
// - LibraryTour: the README's library snippets, verbatim.
// scripts/check-examples checks that every Swift snippet of the README is in these sources, builds the package
// (so no module of Shrink may share a name with swift-nio's or Hummingbird's), runs the tour in a scratch folder
// and the server on a loopback port, and checks its answers.
import PackageDescription

let package = Package(
    name: "ThumbnailServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Shrink", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "ThumbnailServer",
            dependencies: [
                .product(name: "Shrink", package: "Shrink"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(name: "LibraryTour", dependencies: [.product(name: "Shrink", package: "Shrink")]),
    ]
)
