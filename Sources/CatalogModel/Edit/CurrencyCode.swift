/// An ISO 4217 alphabetic currency code: three ASCII letters, held in upper case. The rule of what
/// a record's ``Record/currency`` may be when a record is changed through the API or the CLI
/// (imports keep what the source had, upper-cased).
///
/// ```swift
/// CurrencyCode("eur")?.text        // "EUR"
/// CurrencyCode("EURO")             // nil
/// CurrencyCode("EUR")?.isActive    // true
/// CurrencyCode("HRK")?.isActive    // false: withdrawn in 2023
/// ```
struct CurrencyCode: Sendable, Hashable, CustomStringConvertible {
    /// The three upper-case ASCII letters.
    let text: String

    /// The code `text` spells in either case, or nil when it is not three ASCII letters.
    init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
        self.text = String(decoding: bytes.map { $0 & 0xDF }, as: UTF8.self)
    }

    /// Whether the code is in ISO 4217's list of active codes (``active``).
    var isActive: Bool { Self.active.contains(text) }

    /// The three letters.
    var description: String { text }
}
