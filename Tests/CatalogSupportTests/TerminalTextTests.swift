import CatalogSupport
import Testing

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("Tea\u{1B}]0;pwned\u{07}", "Tea␛]0;pwned␇"),
        ("\u{1B}[2J\u{1B}P1;2q\u{1B}\\", "␛[2J␛P1;2q␛\\"),
        ("C1 \u{9B}31m and \u{9D}0;x\u{9C}", "C1 �31m and �0;x�"),
        ("DEL\u{7F} NUL\u{0}", "DEL␡ NUL␀"),
        ("abc\u{202E}fed\u{2066}x\u{2069}", "abc�fed�x�"),
        ("a\tb\nc\r\nd\u{2028}e\u{85}f", "a b c  d e f"),
        ("Árvíztűrő tükörfúrógép 🍵", "Árvíztűrő tükörfúrógép 🍵"),
    ])
    func fieldsMakeEveryControlVisibleAndStayOnOneLine(input: String, expected: String) {
        #expect(TerminalText.field(input) == expected)
        #expect(TerminalText.field(input).utf16.count == input.utf16.count)
    }

    @Test func textKeepsLinesAndTabs() {
        #expect(TerminalText.text("one\r\ntwo\rthree\n\tfour\u{1B}[H") == "one\ntwo\nthree\n\tfour␛[H")
    }

    @Test func unsafeScalars() {
        for value: UInt32 in [0x00, 0x07, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069] {
            #expect(TerminalText.isUnsafe(Unicode.Scalar(value)!))
        }
        for value: UInt32 in [0x20, 0x41, 0xA0, 0xE9, 0x200B, 0x2400] {
            #expect(!TerminalText.isUnsafe(Unicode.Scalar(value)!))
        }
    }
}
