import Testing
@testable import ShrinkCore

@Suite struct JSONTextTests {
    @Test func quotesEscapesAndControlCharacters() {
        #expect(JSONText.quoted("plain ✓") == "\"plain ✓\"")
        #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.quoted("1\n2\r3\t4\u{1}\u{1f}") == #""1\n2\r3\t4\u0001\u001f""#)
        // Outside HTML, markup characters stay as they are.
        #expect(JSONText.quoted("<b>&</b>") == "\"<b>&</b>\"")
    }

    @Test func forHTMLNothingCanCloseAScriptOrAttribute() {
        #expect(JSONText.quoted("</script><b>&", forHTML: true) == #""\u003c/script\u003e\u003cb\u003e\u0026""#)
        #expect(JSONText.quoted("\u{2028}\u{2029}", forHTML: true) == #""\u2028\u2029""#)
        #expect(JSONText.quoted("\u{2028}") == "\"\u{2028}\"")
    }
}
