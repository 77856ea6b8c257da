import Testing
@testable import ShrinkCore

@Suite struct ArrayListedTests {
    @Test func listsAsAMessageDoes() {
        #expect(["jpg"].listed() == "jpg")
        #expect(["jpg", "png"].listed() == "jpg and png")
        #expect([".jpg", ".png", ".webp"].listed(conjunction: "or") == ".jpg, .png or .webp")
        #expect([String]().listed() == "")
    }
}
