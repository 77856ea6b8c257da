import Shrink

/// The output format of a URL that names none, chosen from the client's `Accept` header: AVIF when it is enabled and
/// the header names `image/avif`, WebP when it is enabled and the header names `image/webp` (the one with the higher
/// weight when both are named, AVIF on a tie), else nil: the source's own family. A response whose format was
/// negotiated this way varies with `Accept`, whatever was chosen.
package struct FormatNegotiation: Sendable, Equatable {
    /// Offer AVIF (`SHRINK_AUTO_AVIF`, `IMGPROXY_AUTO_AVIF`).
    package var avif: Bool
    /// Offer WebP (`SHRINK_AUTO_WEBP`, `IMGPROXY_AUTO_WEBP`).
    package var webp: Bool

    /// Negotiation offering AVIF, WebP, both or neither.
    package init(avif: Bool = false, webp: Bool = false) {
        self.avif = avif
        self.webp = webp
    }

    /// True when a format can be negotiated at all (then every response to a URL naming no format has
    /// `Vary: Accept`).
    package var isEnabled: Bool { avif || webp }

    /// The format for a client that sent `accept` (nil: no header), or nil for the source's family.
    package func format(accept: String?) -> ImageFormat? {
        guard isEnabled, let accept else { return nil }
        let header = AcceptHeader(accept)
        var chosen: (format: ImageFormat, weight: Double)?
        for (format, offered) in [(ImageFormat.avif, avif), (.webp, webp)] where offered {
            guard header.names(format.mimeType) else { continue }
            let weight = header.weight(of: format.mimeType)
            if chosen == nil || weight > chosen!.weight { chosen = (format, weight) }
        }
        return chosen?.format
    }
}
