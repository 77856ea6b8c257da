import Shrink
import Testing

@testable import ShrinkServerURL

@Suite struct AcceptHeaderTests {
    @Test func weightsComeFromTheMostSpecificRange() {
        let header = AcceptHeader("image/avif;q=0.4, image/*;q=0.8,*/*;q=0.1, text/html")
        #expect(header.weight(of: "image/avif") == 0.4)
        #expect(header.weight(of: "image/webp") == 0.8)
        #expect(header.weight(of: "application/json") == 0.1)
        #expect(header.weight(of: "text/html") == 1)
        #expect(AcceptHeader("").weight(of: "image/png") == 1, "no ranges: anything goes")
        #expect(AcceptHeader("text/html").weight(of: "image/png") == 0)
    }

    @Test func onlyANamedTypeOptsIn() {
        #expect(AcceptHeader("image/avif,image/webp,*/*").names("image/avif"))
        #expect(!AcceptHeader("*/*").names("image/avif"))
        #expect(!AcceptHeader("image/*").names("image/webp"))
        #expect(!AcceptHeader("image/avif;q=0,*/*").names("image/avif"))
        #expect(AcceptHeader("IMAGE/AVIF ; Q=0.5").names("image/avif"), "case and spaces do not matter")
    }

    @Test func malformedRangesAreSkipped() {
        let header = AcceptHeader(
            "image/avif;q=2, image/webp;q=abc, */webp, image, /x, image/png;q=0.123456, image/jpeg;q=0.5")
        #expect(header.ranges == [AcceptHeader.Range(type: "image", subtype: "jpeg", weight: 0.5)])
        #expect(AcceptHeader(String(repeating: "image/x,", count: 1000)).ranges.count == 64)
    }

    @Test func negotiationPrefersAVIFThenWebPThenTheSource() {
        let both = FormatNegotiation(avif: true, webp: true)
        #expect(both.format(accept: "image/avif,image/webp,*/*") == .avif)
        #expect(both.format(accept: "image/webp,*/*") == .webp)
        #expect(both.format(accept: "*/*") == nil)
        #expect(both.format(accept: nil) == nil)
        #expect(both.format(accept: "image/avif;q=0.5,image/webp") == .webp, "the higher weight wins")
        #expect(both.format(accept: "image/avif,image/webp") == .avif, "AVIF on a tie")
        #expect(FormatNegotiation(webp: true).format(accept: "image/avif,image/webp") == .webp)
        #expect(FormatNegotiation(avif: true).format(accept: "image/webp,*/*") == nil)
        #expect(FormatNegotiation().format(accept: "image/avif") == nil && !FormatNegotiation().isEnabled)
    }
}
