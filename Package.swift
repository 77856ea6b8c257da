// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Shrink",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Shrink", targets: ["Shrink"]),
        .executable(name: "shrink", targets: ["ShrinkCLI"]),
        // The server's request parsers; public only through `@_spi(Fuzzing)` (Fuzz/'s fuzz-server-url).
        .library(name: "ShrinkServerURL", targets: ["ShrinkServerURL"]),
    ],
    // `Server` (on by default) builds `shrink serve` and `shrink sign` into the CLI, with Hummingbird,
    // swift-metrics and service-lifecycle (and libcurl from Debian for remote sources). An app that uses only the `Shrink`
    // library builds none of them either way (SwiftPM builds the targets a product needs); `make test` builds
    // its release CLI with `--disable-default-traits` so that only the debug test build compiles the server.
    traits: [
        .trait(name: "Server", description: "The image server: shrink serve and shrink sign."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` / `preview-documentation` (scripts/docs, `make docs`); a plugin,
        // so an app that depends on Shrink builds nothing of it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // C: setjmp-guarded wrappers over the libjpeg API, and TurboJPEG's lossless transforms. libjpeg is a system
        // library target, so that a machine without it is told which package to install; TurboJPEG is loaded with
        // dlopen on first use (only lossless transforms need it: Debian's libturbojpeg0, libturbojpeg0-dev to build).
        .systemLibrary(
            name: "CShrinkLibJPEG", path: "Sources/ShrinkJPEG/CShrinkJPEG/LibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .target(
            name: "CShrinkJPEG",
            dependencies: ["CShrinkLibJPEG", "CShrinkLoad"],
            path: "Sources/ShrinkJPEG/CShrinkJPEG",
            exclude: ["LibJPEG"],
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        // C: libspng 0.7.3 (Debian 12's version, unmodified) over zlib-ng 2.3.3 (zlib-compatible, its symbols
        // prefixed cshrink_z_), both vendored in Vendor/ (Vendor/VENDORED.md) for the PNG codec: zlib-ng's SIMD inflate and CRC take
        // about 30 % off a large PNG's decode against Debian's zlib. Licences beside the sources.
        .target(
            name: "CShrinkZlibNG", path: "Vendor/CShrinkZlibNG",
            exclude: ["zlib-ng/arch/x86", "zlib-ng/LICENSE.md"], cSettings: [.headerSearchPath("zlib-ng")]),
        .target(
            name: "CShrinkSPNG", dependencies: ["CShrinkZlibNG"], path: "Vendor/CShrinkSPNG",
            exclude: ["LICENSE"]),
        // C: giflib's API as a module, for the tests' GIF writer (TestGIF: giflib's encoder, independent of Shrink's
        // own LZW decoder), nested in the codec's folder.
        .systemLibrary(
            name: "CShrinkGIF", path: "Sources/ShrinkGIF/CShrinkGIF", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]),
        .target(name: "CShrinkSystem", path: "Sources/ShrinkCore/CShrinkSystem"),
        // C: loading a library with dlopen on first use and resolving its functions (the C modules of the codecs'
        // libraries but libjpeg's, of Little CMS and of libcrypto).
        .target(name: "CShrinkLoad", path: "Sources/ShrinkCore/CShrinkLoad"),
        // WebP: libwebp's decoder, encoder, demuxer and muxer, loaded with dlopen on first use (the C module lives in
        // the codec's folder). Building needs the headers (Debian: libwebp-dev); running needs them only for WebP files.
        .target(name: "CShrinkWebP", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkWebP/CShrinkWebP"),
        .target(name: "ShrinkWebP", dependencies: ["ShrinkCore", "CShrinkWebP"], exclude: ["CShrinkWebP"]),
        // libcrypto's headers (Debian's libssl-dev) to build; the library is loaded on first use.
        .target(name: "CShrinkCrypto", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkCore/CShrinkCrypto"),
        .target(
            name: "ShrinkCore", dependencies: ["CShrinkSystem", "CShrinkCrypto"],
            exclude: ["CShrinkCrypto", "CShrinkSystem", "CShrinkLoad"]),
        // C: the resampler's inner loops, built for AVX2 and for the baseline, picked at load time.
        .target(name: "CShrinkResample", path: "Sources/ShrinkResample/CShrinkResample"),
        .target(name: "ShrinkResample", dependencies: ["ShrinkCore", "CShrinkResample"], exclude: ["CShrinkResample"]),
        .target(name: "ShrinkJPEG", dependencies: ["ShrinkCore", "CShrinkJPEG"], exclude: ["CShrinkJPEG"]),
        .target(name: "ShrinkPNG", dependencies: ["ShrinkCore", "CShrinkSPNG"]),
        // HEIC and AVIF: Shrink's container parser, HEVC tiles through libde265, AV1 through dav1d.
        // libde265, loaded with dlopen on first use (linked, every process mapped it and ran its start-up code).
        // Building needs its header (Debian: libde265-dev); running needs libde265-0 only for HEIC files.
        .target(name: "CShrinkDE265", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkHEIF/CShrinkDE265"),
        // dav1d, loaded with dlopen on first use too (Debian: libdav1d-dev to build, libdav1d6 for AVIF files).
        .target(name: "CShrinkDav1d", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkHEIF/CShrinkDav1d"),
        // libheif, only for derived images (iden, iovl) the tile path does not decode: loaded with dlopen on
        // first use (linked, it would load libheif, x265 and aom into every process, ~7 ms at each start).
        // Building needs its header (Debian: libheif-dev); running needs libheif1 only for such images.
        .target(name: "CShrinkHeif", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkHEIF/CShrinkHeif"),
        // libavif, only to write AVIF (with its aom encoder): loaded with dlopen on first use, as Debian's build links
        // five AV1 codecs. Building needs its header (Debian: libavif-dev); running needs libavif15 only to write AVIF.
        .target(name: "CShrinkAVIF", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkHEIF/CShrinkAVIF"),
        .target(
            name: "ShrinkHEIF",
            dependencies: ["ShrinkCore", "CShrinkDE265", "CShrinkDav1d", "CShrinkHeif", "CShrinkAVIF"],
            exclude: ["CShrinkDE265", "CShrinkDav1d", "CShrinkHeif", "CShrinkAVIF"]),
        // C: cgif's API as a module (the GIF writer), nested in the codec's folder; loaded with dlopen on first use.
        // Building needs its header (Debian: libcgif-dev); running needs libcgif0 only to write GIFs.
        .target(name: "CShrinkCGIF", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkGIF/CShrinkCGIF"),
        .target(
            name: "ShrinkGIF", dependencies: ["ShrinkCore", "CShrinkCGIF"],
            exclude: ["CShrinkGIF", "CShrinkCGIF"]),
        // BMP by Shrink's own reader; ICO and CUR over it and the PNG codec (an icon's entries are BMP or PNG images).
        .target(name: "ShrinkBMP", dependencies: ["ShrinkCore"]),
        .target(name: "ShrinkICO", dependencies: ["ShrinkCore", "ShrinkBMP", "ShrinkPNG"]),
        // TIFF: libtiff, loaded with dlopen on first use (linked, every process would map it and the codec libraries it
        // pulls in). Building needs its header (Debian: libtiff-dev); running needs libtiff6 only for TIFF files.
        .target(name: "CShrinkTIFF", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkTIFF/CShrinkTIFF"),
        .target(name: "ShrinkTIFF", dependencies: ["ShrinkCore", "CShrinkTIFF"], exclude: ["CShrinkTIFF"]),
        // JPEG XL: libjxl, loaded with dlopen on first use (its C++ runtime and Brotli mapped only for JPEG XL files).
        // Building needs its headers (Debian: libjxl-dev); running needs libjxl0.7 only for JPEG XL files.
        .target(name: "CShrinkJXL", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkJXL/CShrinkJXL"),
        .target(name: "ShrinkJXL", dependencies: ["ShrinkCore", "CShrinkJXL"], exclude: ["CShrinkJXL"]),
        .target(name: "ShrinkRAW", dependencies: ["ShrinkCore", "ShrinkJPEG", "ShrinkTIFF"]),
        // Colour management: Little CMS 2 (its C module lives in the folder), loaded with dlopen on first use: only
        // images with a colour profile need it. Building needs its header (Debian: liblcms2-dev).
        .target(name: "CShrinkLCMS", dependencies: ["CShrinkLoad"], path: "Sources/ShrinkColor/CShrinkLCMS"),
        .target(name: "ShrinkColor", dependencies: ["ShrinkCore", "CShrinkLCMS"], exclude: ["CShrinkLCMS"]),
        .target(
            name: "Shrink",
            dependencies: [
                "ShrinkCore", "ShrinkColor", "ShrinkResample", "ShrinkJPEG", "ShrinkPNG", "ShrinkWebP", "ShrinkGIF",
                "ShrinkHEIF", "ShrinkBMP", "ShrinkICO", "ShrinkTIFF", "ShrinkJXL", "ShrinkRAW",
                "CShrinkSystem",
            ]),
        // C: libcurl's easy API behind one function (curl_easy_setopt is variadic, which Swift cannot call).
        .systemLibrary(
            name: "CShrinkLibCurl", path: "Sources/ShrinkServer/CShrinkCurl/LibCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(
            name: "CShrinkCurl", dependencies: ["CShrinkLibCurl"], path: "Sources/ShrinkServer/CShrinkCurl",
            exclude: ["LibCurl"], linkerSettings: [.linkedLibrary("curl")]),
        // The server's request side without I/O libraries: imgproxy-style URLs, signatures, local:/// paths,
        // address rules, entity tags.
        .target(name: "ShrinkServerURL", dependencies: ["Shrink"]),
        // The image server: imgproxy-style URLs over the pipeline (Hummingbird; sources through libcurl).
        .target(
            name: "ShrinkServer",
            dependencies: [
                "Shrink", "ShrinkServerURL", "CShrinkCurl",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
            ], exclude: ["CShrinkCurl"], resources: [.embedInCode("Gallery/Templates")]),
        .executableTarget(
            name: "ShrinkCLI",
            dependencies: [
                "Shrink", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .target(name: "ShrinkServer", condition: .when(traits: ["Server"])),
                .target(name: "ShrinkServerURL", condition: .when(traits: ["Server"])),
            ]
        ),
        .target(name: "ShrinkTestSupport", dependencies: ["Shrink", "ShrinkHEIF", "CShrinkGIF"]),
        .testTarget(name: "ShrinkCoreTests", dependencies: ["ShrinkCore", "ShrinkTestSupport"]),
        .testTarget(
            name: "ShrinkResampleTests", dependencies: ["ShrinkResample", "CShrinkResample", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkJPEGTests", dependencies: ["ShrinkJPEG", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkWebPTests", dependencies: ["Shrink", "ShrinkWebP", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkPNGTests", dependencies: ["ShrinkPNG", "CShrinkSPNG", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkHEIFTests", dependencies: ["ShrinkHEIF", "Shrink", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkGIFTests", dependencies: ["ShrinkGIF", "CShrinkGIF", "Shrink", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkTests", dependencies: ["Shrink", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkBMPTests", dependencies: ["Shrink"]),
        .testTarget(name: "ShrinkTIFFTests", dependencies: ["Shrink", "ShrinkTIFF", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkJXLTests", dependencies: ["Shrink", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkRAWTests", dependencies: ["Shrink", "ShrinkTestSupport"]),
        .testTarget(
            name: "ShrinkCLITests",
            dependencies: [
                "Shrink", "ShrinkJPEG", "ShrinkTestSupport", "ShrinkCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "ShrinkColorTests", dependencies: ["ShrinkColor", "CShrinkLCMS", "ShrinkCore", "ShrinkTestSupport"]),
        .testTarget(name: "ShrinkServerURLTests", dependencies: ["ShrinkServerURL", "Shrink", "ShrinkTestSupport"]),
        .testTarget(
            name: "ShrinkServerTests",
            dependencies: [
                "ShrinkServer", "ShrinkServerURL", "ShrinkTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
    ]
)
