/// An ISO 3166-1 alpha-2 country code: exactly two ASCII letters, held in upper case. The one
/// rule of what a country code is, for imported records, search filters, the web app's rows and
/// structured data, and the terminal.
///
/// A code only has to have the shape: user-assigned codes (`XK`, `XX`) are country codes to a
/// filter and an import, as they always were. Whether ISO assigned it is ``isAssigned``; only an
/// assigned code gets a drawn flag, the others show as their letters.
///
/// ```swift
/// CountryCode("de")?.text        // "DE"
/// CountryCode("DEU")             // nil
/// CountryCode("DE")?.isAssigned  // true
/// CountryCode("DE")?.flagEmoji   // "🇩🇪"
/// ```
public struct CountryCode: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The two upper-case ASCII letters.
    public let text: String

    /// What a country code must be, in the words every error about one uses: a search parameter's
    /// (``init(parsing:)``) and an imported field's (``RecordMapper``).
    public static let requirement = "a two-letter ISO 3166 code"

    /// The code `text` spells in either case, or nil when it is not two ASCII letters.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 2, bytes.allSatisfy(Self.isASCIILetter) else { return nil }
        self.text = String(decoding: bytes.map { $0 & 0xDF }, as: UTF8.self)
    }

    /// Whether ISO assigned the code officially (``CountryCode/assigned``): such a code has a
    /// flag to draw.
    public var isAssigned: Bool { Self.assigned.contains(text) }

    /// The flag as an emoji: the two regional indicator letters (`DE` → 🇩🇪). Systems show the
    /// letters for a code without a flag.
    public var flagEmoji: String {
        String(String.UnicodeScalarView(text.utf8.compactMap { Unicode.Scalar(0x1F1E6 + UInt32($0) - 0x41) }))
    }

    /// The two letters.
    public var description: String { text }

    /// Alphabetical order.
    public static func < (lhs: CountryCode, rhs: CountryCode) -> Bool { lhs.text < rhs.text }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte & 0xDF)
    }
}
