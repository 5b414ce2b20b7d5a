import CatalogSupport
import Testing

@Suite struct ScalarReplacementTests {
    @Test(arguments: [
        ("plain \"quote\"", "\"", "\"\"", "plain \"\"quote\"\""),
        // A combining mark after the quote, a prepended mark before it: one character each, still a quote.
        ("a\"\u{301}b", "\"", "\"\"", "a\"\"\u{301}b"),
        ("\u{600}<x", "<", "\\u003c", "\u{600}\\u003cx"),
        // CR LF is one character, yet holds a line feed.
        ("a\r\nb", "\n", "\\n", "a\r\\nb"),
        ("~1\u{301}", "~1", "/", "/\u{301}"),
        ("nothing here", "\"", "\"\"", "nothing here"),
        ("", "\"", "x", ""),
        ("ééé", "é", "e", "eee"),
    ])
    func replacesEveryScalarMatch(text: String, target: String, replacement: String, expected: String) {
        #expect(text.replacingScalars(of: target, with: replacement) == expected)
        #expect(
            text.replacingScalars(of: target, with: replacement).unicodeScalars.elementsEqual(expected.unicodeScalars))
    }
}
