/// One of imgproxy's open-source processing options as Shrink serves it: its names, what Shrink does with it, and the
/// test that shows it (``ProcessingURL/imgproxyOptions`` lists them all; the README's table is made from that list,
/// and a test checks the parser accepts every supported name and refuses the others).
package struct ImgproxyOption: Sendable {
    /// The full name first, then the short ones (`resize`, `rs`).
    package let names: [String]
    /// An argument list the parser accepts, for the check (`fill:300:200`).
    package let sample: String
    /// Supported with imgproxy's semantics; false: refused with a 404 naming it.
    package let supported: Bool
    /// What Shrink does, one line.
    package let summary: String
    /// The test that shows it (`Suite.test`).
    package let test: String

    /// The parser takes it: every supported option, and the unsupported ones Shrink accepts without their effect
    /// (their summary says "accepted"), as imgproxy's clients send them by default.
    package var accepted: Bool { supported || summary.hasPrefix("accepted") }
}
