/// How the server reads its image URLs, from its configuration (imgproxy's variables of the same meaning): the
/// presets, whether URLs may only name presets, whether a Base64 source is followed by a filename, and whether the
/// per-request limits (`msr`, `msfs`, `maf`, `mafr`, `mrd`) are accepted.
package struct URLRules: Sendable {
    /// Option strings by preset name (`rs:fill:300:300/q:70`); `default` applies first to every URL.
    package var presets: [String: String] = [:]
    /// Every option segment is a preset name (`IMGPROXY_ONLY_PRESETS`).
    package var onlyPresets = false
    /// A Base64url source is followed by `/FILENAME.EXT`, which is not part of it
    /// (`IMGPROXY_BASE64_URL_INCLUDES_FILENAME`).
    package var base64IncludesFilename = false
    /// `msr`, `msfs`, `maf`, `mafr`, `mrd` may change the limits for one URL (`IMGPROXY_ALLOW_SECURITY_OPTIONS`);
    /// otherwise they are refused.
    package var allowsSecurityOptions = false

    package init(presets: [String: String] = [:]) {
        self.presets = presets
    }

    /// The deepest chain of presets naming presets a URL may expand.
    static let maxPresetDepth = 8
}
