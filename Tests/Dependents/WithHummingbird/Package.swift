// swift-tools-version: 6.0
// An app that depends on Shrink and on Hummingbird (which brings swift-nio and swift-system): it must resolve
// and build, so no module of Shrink may share a name with theirs (a C target once called `CSystem` did).
// scripts/check-dependents builds and runs it.
import PackageDescription

let package = Package(
    name: "WithHummingbird",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Shrink", path: "../../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "WithHummingbird",
            dependencies: [
                .product(name: "Shrink", package: "Shrink"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
