import CatalogJSON
import Testing

@Suite struct JSONLexisTests {
    /// A cursor over bytes in memory, as the readers' cursors walk theirs.
    struct Cursor: JSONByteCursor {
        typealias Failure = Never
        let bytes: [UInt8]
        var index = 0
        func peekByte() -> UInt8? { index < bytes.count ? bytes[index] : nil }
        mutating func advance() { index += 1 }
    }

    static func scan(_ text: String) -> (fault: JSONLexis.NumberFault?, end: Int) {
        var cursor = Cursor(bytes: Array(text.utf8))
        let fault = JSONLexis.scanNumber(&cursor)
        return (fault, cursor.index)
    }

    @Test(
        arguments: [
            ("0", nil, 1), ("-0", nil, 2), ("12.50", nil, 5), ("1e9", nil, 3), ("-2.5E-3", nil, 7), ("7,", nil, 1),
            ("1x", nil, 1), ("-", .digitExpectedAfterMinus, 1), ("-a", .digitExpectedAfterMinus, 1),
            ("012", .leadingZero, 1), ("1.", .digitExpectedAfterPoint, 2), ("1.e5", .digitExpectedAfterPoint, 2),
            ("1e", .digitExpectedAfterExponent, 2), ("1e+", .digitExpectedAfterExponent, 3),
        ] as [(String, JSONLexis.NumberFault?, Int)])
    func numberGrammar(text: String, fault: JSONLexis.NumberFault?, end: Int) {
        let result = Self.scan(text)
        #expect(result.fault == fault)
        #expect(result.end == end, "where the cursor stops")
    }

    @Test func numberValidityFollowsTheGrammar() {
        for valid in ["0", "-0", "1.50", "2e-3", "-10E+2"] { #expect(JSONNumber.isValid(valid), "\(valid)") }
        for invalid in ["", "-", "01", "1.", ".5", "1e", "+1", "1 ", "NaN", "0x10"] {
            #expect(!JSONNumber.isValid(invalid), "\(invalid)")
        }
    }

    @Test func escapes() {
        let pairs: [(Character, UInt8)] = [
            ("\"", 0x22), ("\\", 0x5C), ("/", 0x2F), ("b", 0x08), ("f", 0x0C), ("n", 0x0A), ("r", 0x0D), ("t", 0x09),
        ]
        for (kind, byte) in pairs { #expect(JSONLexis.simpleEscape(kind.asciiValue!) == byte) }
        for kind in ["u", "x", "0", "N"] as [Character] { #expect(JSONLexis.simpleEscape(kind.asciiValue!) == nil) }
    }

    @Test func hexDigitsAndSurrogates() {
        let read: (String) -> JSONLexis.Hex4 = { text in
            Array(text.utf8).withUnsafeBufferPointer { JSONLexis.hex4($0.baseAddress!) }
        }
        #expect(read("00e9") == .unit(0xE9))
        #expect(read("D83D") == .unit(0xD83D))
        #expect(read("12g4") == .invalidDigit(at: 2))
        #expect(JSONLexis.surrogate(0xD83D) == .high)
        #expect(JSONLexis.surrogate(0xDE00) == .low)
        #expect(JSONLexis.surrogate(0xE000) == nil)
        #expect(JSONLexis.surrogate(0xD7FF) == nil)
        #expect(JSONLexis.scalar(high: 0xD83D, low: 0xDE00) == 0x1F600)
    }

    @Test(arguments: [0x41, 0xE9, 0x20AC, 0x1F600, 0x10FFFF] as [UInt32])
    func utf8MatchesTheStandardLibrary(scalar: UInt32) {
        var bytes: [UInt8] = []
        JSONLexis.appendUTF8(scalar, to: &bytes)
        #expect(bytes == Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
    }

    @Test func literalsAndWordBytes() {
        #expect(JSONLexis.literal(startingWith: UInt8(ascii: "t")).map { "\($0)" } == "true")
        #expect(JSONLexis.literal(startingWith: UInt8(ascii: "f")).map { "\($0)" } == "false")
        #expect(JSONLexis.literal(startingWith: UInt8(ascii: "n")).map { "\($0)" } == "null")
        #expect(JSONLexis.literal(startingWith: UInt8(ascii: "x")) == nil)
        #expect(JSONLexis.isIdentifierByte(UInt8(ascii: "_")) && JSONLexis.isIdentifierByte(0xC3))
        #expect(!JSONLexis.isIdentifierByte(UInt8(ascii: ",")) && !JSONLexis.isIdentifierByte(UInt8(ascii: ".")))
        #expect(JSONLexis.isWhitespace(0x20) && JSONLexis.isWhitespace(0x0A) && !JSONLexis.isWhitespace(0x0C))
    }
}
