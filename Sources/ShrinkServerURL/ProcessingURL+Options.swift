/// imgproxy's open-source processing options, each as Shrink serves it: the source of the README's table
/// (``optionsTable``).
extension ProcessingURL {
    package static let imgproxyOptions: [ImgproxyOption] = [
        .init(
            names: ["resize", "rs"], sample: "fill:300:200:1:1:so", supported: true,
            summary: "type, width, height, enlarge, extend and its gravity",
            test: "ImageServiceTests.geometryAndFinishingAsImgproxyAnswersThem"),
        .init(
            names: ["size", "s"], sample: "300:200:0:1", supported: true, summary: "width, height, enlarge, extend",
            test: "ProcessingURLTests.extendPaddingAndFiltersMapToFinishing"),
        .init(
            names: ["resizing_type", "rt"], sample: "force", supported: true,
            summary: "fit, fill, fill-down, force, auto",
            test: "ProcessingURLTests.resizingTypesMapToFitsAndOneSideFits"),
        .init(
            names: ["width", "w"], sample: "300", supported: true, summary: "0: from the height",
            test: "ProcessingURLTests.optionsMapToTypedValues"),
        .init(
            names: ["height", "h"], sample: "200", supported: true, summary: "0: from the width",
            test: "ProcessingURLTests.optionsMapToTypedValues"),
        .init(
            names: ["min-width", "mw"], sample: "100", supported: true, summary: "the result at least this wide",
            test: "FinishingTests.stretchFillAndMinimumSizesAsImgproxyGivesThem"),
        .init(
            names: ["min-height", "mh"], sample: "100", supported: true, summary: "the result at least this tall",
            test: "FinishingTests.stretchFillAndMinimumSizesAsImgproxyGivesThem"),
        .init(
            names: ["zoom", "z"], sample: "1.5:2", supported: true,
            summary: "one factor or one per axis, before the no-upscaling clamp",
            test: "FinishingTests.zoomMultipliesTheResultWithinTheSource"),
        .init(
            names: ["dpr"], sample: "2", supported: true, summary: "sizes, offsets, padding multiplied",
            test: "ProcessingURLTests.extendPaddingAndFiltersMapToFinishing"),
        .init(
            names: ["page", "pg"], sample: "1", supported: true,
            summary: "the page of a multi-page source (a TIFF's), from 0; a page the file lacks is a 400",
            test: "ProcessingURLTests.thePageOptionPicksATIFFPage"),
        .init(
            names: ["enlarge", "el"], sample: "1", supported: true, summary: "upscale smaller sources",
            test: "ProcessingURLTests.optionsMapToTypedValues"),
        .init(
            names: ["extend", "ex"], sample: "1:noea:5:5", supported: true,
            summary: "canvas grown to the size, placed by gravity",
            test: "FinishingTests.canvasesAndPaddingPlaceTheImageAndFillTheRest"),
        .init(
            names: ["extend_aspect_ratio", "extend_ar", "exar"], sample: "1:we", supported: true,
            summary: "canvas grown to the aspect ratio",
            test: "FinishingTests.canvasesAndPaddingPlaceTheImageAndFillTheRest"),
        .init(
            names: ["gravity", "g"], sample: "soea:10:0.1", supported: true,
            summary: "compass with offsets, fp, sm (libvips' attention strategy)",
            test: "FinishingTests.gravityOffsetsAndFocusPointsPlaceTheWindow, AttentionCropTests"),
        .init(
            names: ["crop", "c"], sample: "0.5:0.5:no", supported: true,
            summary: "before the resize, absolute or relative", test: "ImageServiceTests.gravityRotationAndFormats"),
        .init(
            names: ["trim", "t"], sample: "10:ffffff:1:0", supported: true,
            summary:
                "threshold, colour (else the top-left pixel's), equal cuts; the borders found on a reduced decode, never the full-size image",
            test: "TrimTests, ImageServiceTests.trimCutsTheBackground"),
        .init(
            names: ["padding", "pd"], sample: "10:20", supported: true, summary: "CSS order and shorthand, times dpr",
            test: "ProcessingURLTests.extendPaddingAndFiltersMapToFinishing"),
        .init(
            names: ["auto_rotate", "ar"], sample: "0", supported: true, summary: "ar:0 shows the pixels as stored",
            test: "ImageServiceTests.rawSkipAutoRotateMetadataAndFormatQuality"),
        .init(
            names: ["rotate", "rot"], sample: "90", supported: true,
            summary: "multiples of 90, folded into the one orientation",
            test: "ImageServiceTests.gravityRotationAndFormats"),
        .init(
            names: ["flip", "fl"], sample: "1:0", supported: true, summary: "mirrors after the rotation",
            test: "ProcessingURLTests.flipsAndZoom"),
        .init(
            names: ["background", "bg"], sample: "ff0000", supported: true,
            summary: "hex or R:G:B; the result flattened onto it; empty unsets",
            test: "ImageServiceTests.geometryAndFinishingAsImgproxyAnswersThem"),
        .init(
            names: ["blur", "bl"], sample: "2", supported: true, summary: "Gaussian at the output size",
            test: "FinishingTests.blurIsLibvipsGaussblurWithinTheApproximation"),
        .init(
            names: ["sharpen", "sh"], sample: "1", supported: true, summary: "unsharp mask at the output size",
            test: "FinishingTests.sharpenRaisesEdgesAndLeavesFlatAreas"),
        .init(
            names: ["pixelate", "pix"], sample: "8", supported: true, summary: "block means, times dpr",
            test: "FinishingTests.pixelationIsTheMeanOfEachBlock"),
        .init(
            names: ["watermark", "wm"], sample: "0.5:soea:5:5:0.2", supported: true,
            summary: "the configured image: opacity, position or re, offsets, scale",
            test: "ImageServiceTests.watermarksFromTheConfiguration"),
        .init(
            names: ["strip_metadata", "sm"], sample: "0", supported: true, summary: "sm:0 keeps EXIF",
            test: "ImageServiceTests.rawSkipAutoRotateMetadataAndFormatQuality"),
        .init(
            names: ["keep_copyright", "kcr"], sample: "1", supported: true,
            summary:
                "EXIF Copyright and Artist kept while the rest is stripped (on by default, IMGPROXY_KEEP_COPYRIGHT); Shrink carries no IPTC or XMP",
            test: "ImageServiceTests.copyrightIsKeptAloneUnlessAskedOtherwise"),
        .init(
            names: ["strip_color_profile", "scp"], sample: "0", supported: true,
            summary: "scp:0 keeps the source's colours and profile",
            test: "ProcessingURLTests.metadataColourOrientationAndPassThrough"),
        .init(
            names: ["enforce_thumbnail", "eth"], sample: "1", supported: true,
            summary: "the embedded thumbnail when large enough",
            test: "ProcessingURLTests.metadataColourOrientationAndPassThrough"),
        .init(
            names: ["quality", "q"], sample: "70", supported: true, summary: "1–100; 0: fq's, then the server's",
            test: "ProcessingURLTests.optionsMapToTypedValues"),
        .init(
            names: ["format_quality", "fq"], sample: "webp:70:avif:50", supported: true, summary: "quality by format",
            test: "ImageServiceTests.rawSkipAutoRotateMetadataAndFormatQuality"),
        .init(
            names: ["max_bytes", "mb"], sample: "50000", supported: true,
            summary: "highest quality that fits, at most 7 encodes",
            test: "ImageServiceTests.rawSkipAutoRotateMetadataAndFormatQuality"),
        .init(
            names: ["format", "f", "ext"], sample: "webp", supported: true,
            summary: "jpg, png, webp, gif, avif (415 for the rest)",
            test: "ProcessingURLTests.errorsHaveStatusesAndMessages"),
        .init(
            names: ["skip_processing", "skp"], sample: "jpg:png", supported: true,
            summary: "the listed source formats answered as they are",
            test: "ImageServiceTests.rawSkipAutoRotateMetadataAndFormatQuality"),
        .init(
            names: ["raw"], sample: "1", supported: true, summary: "the source's bytes, its own ETag",
            test: "ImageServiceTests.rawSkipAutoRotateMetadataAndFormatQuality"),
        .init(
            names: ["cachebuster", "cb"], sample: "v2", supported: true, summary: "in the ETag and cache keys",
            test: "ProcessingURLTests.optionsMapToTypedValues"),
        .init(
            names: ["expires", "exp"], sample: "0", supported: true, summary: "404 after it; 0 never",
            test: "ProcessingURLTests.expiryBooleansAndBackgroundAsImgproxyReadsThem"),
        .init(
            names: ["filename", "fn"], sample: "photo:0", supported: true,
            summary: "Content-Disposition's name, plain or Base64", test: "ContentDispositionTests"),
        .init(
            names: ["return_attachment", "att"], sample: "1", supported: true,
            summary: "Content-Disposition: attachment", test: "ContentDispositionTests"),
        .init(
            names: ["preset", "pr"], sample: "default", supported: true,
            summary: "presets naming presets, 8 deep at most", test: "ImageServiceTests.imgproxysDeploymentVariables"),
        .init(
            names: ["max_src_resolution", "msr"], sample: "10", supported: true,
            summary: "with IMGPROXY_ALLOW_SECURITY_OPTIONS",
            test: "ProcessingURLTests.metadataColourOrientationAndPassThrough"),
        .init(
            names: ["max_src_file_size", "msfs"], sample: "1000000", supported: true,
            summary: "with IMGPROXY_ALLOW_SECURITY_OPTIONS",
            test: "ProcessingURLTests.metadataColourOrientationAndPassThrough"),
        .init(
            names: ["max_animation_frames", "maf"], sample: "10", supported: true,
            summary: "with IMGPROXY_ALLOW_SECURITY_OPTIONS",
            test: "ProcessingURLTests.metadataColourOrientationAndPassThrough"),
        .init(
            names: ["max_animation_frame_resolution", "mafr"], sample: "1", supported: true,
            summary: "with IMGPROXY_ALLOW_SECURITY_OPTIONS",
            test: "ProcessingURLTests.metadataColourOrientationAndPassThrough"),
        .init(
            names: ["max_result_dimension", "mrd"], sample: "2000", supported: true,
            summary: "with IMGPROXY_ALLOW_SECURITY_OPTIONS; 413 above it",
            test: "ImageServiceTests.imgproxysDeploymentVariables"),
    ]

    /// The README's table of ``imgproxyOptions``, in Markdown.
    package static var optionsTable: String {
        let rows = imgproxyOptions.map { o in
            "| \(o.names.map { "`\($0)`" }.joined(separator: ", ")) | \(o.supported ? "yes" : "**no**") | \(o.summary) | `\(o.test)` |"
        }
        let supported = imgproxyOptions.filter(\.supported).count
        return
            (["| option | supported | what Shrink does | test |", "|---|---|---|---|"] + rows + [
                "",
                "\(supported) of imgproxy's \(imgproxyOptions.count) open-source processing options supported with its semantics.",
            ]).joined(separator: "\n")
    }
}
