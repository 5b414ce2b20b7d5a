import CatalogModel

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
    /// A whole word of a field the catalog's searchable fields name, after its weight
    /// (``SearchSettings/weight(of:)``, one byte, 1…``SearchSettings/maxFieldWeights``): the
    /// word is a ``fieldWord`` (or ``exactFieldWord``) too, this says how much it weighs.
    case weightedFieldWord = 0x57  // W
    /// The first 1…``IndexTerms/fieldPrefixLength`` letters of a ``weightedFieldWord``, after
    /// its weight.
    case weightedFieldPrefix = 0x52  // R
    /// A symbol (currency sign, dash, emoji, …) in the title.
    case titleSymbol = 0x59  // Y
    /// A symbol in another field.
    case fieldSymbol = 0x5A  // Z
    /// A category the record carries, by the category's number.
    case category = 0x43  // C
    /// The record's country code.
    case country = 0x4B  // K
    /// A value of a record's own field, for equality filters and facets: the field's name, a
    /// zero byte, the folded value, a zero byte and the value as written (``IndexTerms/fieldValue(_:_:)``).
    /// A field with no value (`""`, `null`, `[]`) has the term with both texts empty.
    case fieldValue = 0x56  // V
    /// A number value of a record's own field: the field's name, a zero byte and the number's
    /// eight ordered bytes (``FieldValueOrder/sortable(_:)``), so a range is a run of terms.
    case fieldNumber = 0x4E  // N
    /// A date value of a record's own field, as ``fieldNumber`` with seconds since 1970.
    case fieldDate = 0x44  // D
    /// That a record has a field, whatever its value: the field's name.
    case fieldPresent = 0x58  // X
    /// The currency code of a record's price (upper case), for sorting prices within a currency.
    case currency = 0x24  // $
    /// One item of a list written as one text of a record's own field (`München,Munich,Monaco di
    /// Baviera`, as lists of alternate names or tags come): the item's folded words
    /// (``IndexTerms/valueKey(_:)``), whatever the field, so that a query that is one of the items
    /// ranks as an exact match. Only for texts that read as lists (``IndexTerms/listItems(_:)``).
    case listItem = 0x4C  // L
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

    /// The term of `text` of a weighted kind (``IndexTermKind/weightedFieldWord``,
    /// ``IndexTermKind/weightedFieldPrefix``) at `weight`.
    public static func weighted(_ kind: IndexTermKind, weight: Int, _ text: some Collection<UInt8>) -> [UInt8] {
        var term = [kind.rawValue, UInt8(weight)]
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

    /// The term of a price's currency code.
    public static func currency(_ code: String) -> [UInt8] {
        term(.currency, code.uppercased().utf8)
    }

    /// The start of every term of `kind` (``IndexTermKind/fieldValue`` and the other field kinds)
    /// of one field: the kind, the field's name and a zero byte.
    public static func fieldPrefix(_ kind: IndexTermKind, _ field: String) -> [UInt8] {
        var term = [kind.rawValue]
        term.append(contentsOf: field.utf8)
        if kind != .fieldPresent { term.append(0) }
        return term
    }

    /// The start of the value terms of `field` equal to `value` (its ``valueKey(_:)``): every
    /// spelling of the value continues it.
    public static func fieldValuePrefix(_ field: String, folded value: String) -> [UInt8] {
        var term = fieldPrefix(.fieldValue, field)
        term.append(contentsOf: value.utf8)
        term.append(0)
        return term
    }

    /// How a value is compared for equality and an exact match: its folded words one space apart
    /// (`"St. Gallen"` and `"st gallen"` are the same value), or, without words, the folded text.
    public static func valueKey(_ value: String) -> String {
        FieldValueOrder.valueKey(value)
    }

    /// The value term of `value` of `field`, nil for a value longer than
    /// ``FieldValueOrder/maxValueBytes`` or holding a zero byte.
    public static func fieldValue(_ field: String, _ value: String) -> [UInt8]? {
        guard value.utf8.count <= FieldValueOrder.maxValueBytes, !value.utf8.contains(0) else { return nil }
        var term = fieldValuePrefix(field, folded: valueKey(value))
        term.append(contentsOf: value.utf8)
        return term
    }

    /// The number term of `value` of `field` (``IndexTermKind/fieldNumber`` or ``IndexTermKind/fieldDate``).
    public static func fieldOrdered(_ kind: IndexTermKind, _ field: String, _ value: Double) -> [UInt8] {
        fieldPrefix(kind, field) + FieldValueOrder.sortable(value)
    }

    /// The terms of one of a record's own fields: its presence, each value (texts up to
    /// ``FieldValueOrder/maxValueBytes``), each item of a text that is a list (``listItems(_:)``),
    /// each number and each date, each once.
    public static func fieldTerms(_ field: String, _ value: FieldValue) -> [[UInt8]] {
        guard !field.utf8.contains(0) else { return [] }
        var terms = [fieldPrefix(.fieldPresent, field)]
        let texts = value.values
        if texts.allSatisfy(\.isEmpty) {
            terms.append(fieldPrefix(.fieldValue, field) + [0])
            return terms
        }
        for text in texts where !text.isEmpty {
            if let term = fieldValue(field, text) { terms.append(term) }
            for item in listItems(text) ?? [] { terms.append(listItem(item)) }
            if let number = FieldValueOrder.number(text) {
                terms.append(fieldOrdered(.fieldNumber, field, number))
            } else if let date = FieldValueOrder.date(text) {
                terms.append(fieldOrdered(.fieldDate, field, date))
            }
        }
        var seen: Set<[UInt8]> = []
        return terms.filter { seen.insert($0).inserted }
    }

    /// The list item term of a folded item (``IndexTermKind/listItem``).
    public static func listItem(_ key: String) -> [UInt8] {
        [IndexTermKind.listItem.rawValue] + Array(key.utf8)
    }

    /// The items of a text that reads as a list of names: two or more items between commas or
    /// semicolons, each with a letter (`1,5` and coordinates are not lists), none longer than
    /// ``maxListItemWords`` words or
    /// ``maxListItemBytes`` bytes, and at most ``meanListItemWords`` words an item on average
    /// (alternate names, tags; a sentence's clauses are longer); nil for any other text. The items
    /// are folded (``valueKey(_:)``) and each is given once.
    ///
    /// ```swift
    /// IndexTerms.listItems("München,Munich,Monaco di Baviera")   // ["munchen", "munich", "monaco di baviera"]
    /// IndexTerms.listItems("Tested in our workshop, rated quiet by customers.")   // nil
    /// ```
    public static func listItems(_ text: String) -> [String]? {
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x3B }) else { return nil }
        var items: [String] = []
        var seen: Set<String> = []
        var words = 0
        let parts = text.unicodeScalars.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == ";" })
        guard parts.count >= 2, parts.count <= maxListItems else { return nil }
        for part in parts {
            let item = String(String.UnicodeScalarView(part))
            let itemWords = TextFolding.words(item)
            guard !itemWords.isEmpty, itemWords.count <= maxListItemWords, item.utf8.count <= maxListItemBytes,
                item.unicodeScalars.contains(where: \.properties.isAlphabetic)
            else { return nil }
            words += itemWords.count
            let key = itemWords.joined(separator: " ")
            if seen.insert(key).inserted { items.append(key) }
        }
        guard Double(words) <= meanListItemWords * Double(parts.count) else { return nil }
        return items
    }

    /// The most words of one list item (``listItems(_:)``).
    public static let maxListItemWords = 4
    /// The most bytes of one list item.
    public static let maxListItemBytes = 80
    /// The most words a list's items have on average.
    public static let meanListItemWords = 2.5
    /// The most items of one list: a longer text is not a list of names.
    public static let maxListItems = 500
}
