import ArgumentParser
import Shrink

extension ColorPolicy: ExpressibleByArgument {}

/// The colour option of the commands that write images.
struct ColorArguments: ParsableArguments {
    @Option(
        name: [.customLong("colour"), .customLong("color")],
        help:
            "Colours of the output: srgb (convert from the image's ICC profile to sRGB after reducing, embed no profile: what a browser shows for an untagged image), keep (the pixels as decoded, the source profile embedded), or display-p3 (convert to Display P3 and embed its profile). An unreadable profile is a warning and treated as sRGB."
    )
    var color: ColorPolicy = ThumbnailJob.defaults.color
}
