/// What an indexed term stands for: its first byte. The rest of a term is folded UTF-8 text
/// (or, for categories and countries, the value's own spelling).
///
/// Together the kinds answer every question a search asks without reading records: whole title
/// words and their beginnings (for as-you-type prefixes), every short run of letters inside
/// title words (the original app's substring search from the first letter), the title's first
/// word (titles that start with the query), the words of every other field, symbols, and the
/// facet values searches filter and count by.
public enum IndexTermKind: UInt8, CaseIterable, Sendable {
    /// A whole word of the title.
    case titleWord = 0x54  // T
    /// The first 1…``IndexTerms/prefixLength`` letters of a title word.
    case titlePrefix = 0x50  // P
    /// A run of 1…``IndexTerms/gramLength`` letters anywhere inside a title word.
    case titleGram = 0x47  // G
    /// The title's first word.
    case firstWord = 0x41  // A
    /// The first 1…``IndexTerms/prefixLength`` letters of the title's first word.
    case firstPrefix = 0x42  // B
    /// A whole word of any other field (subtitle, description, categories, extra fields, id).
    case fieldWord = 0x46  // F
    /// The first 1…``IndexTerms/fieldPrefixLength`` letters of a word of another field.
    case fieldPrefix = 0x51  // Q
    /// A whole word of a field typos never reach: the id, a URL, a field the catalog's settings
    /// exempt (``TypoSettings/exemptFields``). Found whole and from its start, like ``fieldWord``.
    case exactFieldWord = 0x45  // E
    /// A symbol (currency sign, dash, emoji, …) in the title.
    case titleSymbol = 0x59  // Y
    /// A symbol in another field.
    case fieldSymbol = 0x5A  // Z
    /// A category the record carries, by the category's number.
    case category = 0x43  // C
    /// The record's country code.
    case country = 0x4B  // K
}

/// Term spelling shared by the index builder and the searcher.
public enum IndexTerms {
    /// Title word prefixes up to this many characters have posting lists of their own; longer
    /// prefixes are answered from the whole words that start with them.
    public static let prefixLength = 4
    /// Runs inside title words up to this many characters have posting lists of their own;
    /// longer ones are answered from the whole words that contain them.
    public static let gramLength = 3
    /// Prefixes of the words of other fields up to this many characters have posting lists.
    public static let fieldPrefixLength = 3

    /// The term for `text` of `kind`.
    @inlinable
    public static func term(_ kind: IndexTermKind, _ text: some Collection<UInt8>) -> [UInt8] {
        var term = [kind.rawValue]
        term.append(contentsOf: text)
        return term
    }

    /// The term of a category by number.
    public static func category(_ number: Int) -> [UInt8] {
        term(.category, String(number).utf8)
    }

    /// The term of a country code (upper case, as records store it).
    public static func country(_ code: String) -> [UInt8] {
        term(.country, code.uppercased().utf8)
    }
}
