/// What colour management did to one image's pixels (``ColorManagement/apply(_:to:profile:)``): the profile an
/// output should embed, what ran, and what could not be done.
package struct ColorManagementResult: Sendable {
    /// The ICC profile to embed: the source's with `keep`, Display P3's with `displayP3`, none with `sRGB`.
    package let profile: [UInt8]?
    /// What ran (nil with `keep`).
    package let conversion: ColorConversion?
    /// Why the profile was not applied (unreadable, or the wrong colour space for the pixels), when it was not.
    package let warning: String?

    package init(profile: [UInt8]?, conversion: ColorConversion?, warning: String?) {
        self.profile = profile
        self.conversion = conversion
        self.warning = warning
    }
}
