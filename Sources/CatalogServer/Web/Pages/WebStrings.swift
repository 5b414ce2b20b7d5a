import CatalogModel
import Foundation

/// The web app's words in one language: a message table `Web/Strings/<language>.json` (embedded
/// at build time), plurals by CLDR's rules, numbers and prices with the locale's separators.
///
/// Every page takes its words from one of these: a catalog's pages from its locale's table, the
/// pages without a catalog (home, sign-in, errors) from the best match of `Accept-Language`.
///
/// ```swift
/// let strings = WebStrings.forLocale("de")
/// strings[.search]                      // "Suchen"
/// strings.plural(.results, 200_000)     // "200.000 Treffer"
/// ```
struct WebStrings: Sendable {
    /// The language tag of the table (`de`).
    let language: String
    /// The locale numbers are formatted for: the catalog's own (`de-AT`) or the language.
    let locale: Locale
    private let table: [String: Entry]

    /// A message: a text, or a text per CLDR plural category (`{"one": "…", "other": "…"}`).
    enum Entry: Sendable, Equatable, Decodable {
        case text(String)
        case plural([String: String])

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let text = try? value.decode(String.self) {
                self = .text(text)
            } else {
                self = .plural(try value.decode([String: String].self))
            }
        }
    }

    /// The languages with a message table: English, German and Hungarian (the original apps'),
    /// and the other languages the catalog generator writes.
    static let supported = ["en", "de", "hu", "sv", "fr", "es"]

    /// Every table, read once. A table is part of the build (checked by the tests), so one that
    /// does not decode is a broken build, not a runtime condition.
    static let tables: [String: [String: Entry]] = {
        var tables: [String: [String: Entry]] = [:]
        for language in supported {
            let name = "Web/Strings/\(language).json"
            guard let bytes = EmbeddedFiles.bytes(of: name) else { fatalError("\(name) is missing") }
            do {
                tables[language] = try JSONDecoder().decode([String: Entry].self, from: Data(bytes))
            } catch {
                fatalError("\(name) is not a table of texts and plural forms: \(error)")
            }
        }
        return tables
    }()

    /// The raw table of `language`, for the page's script.
    static func table(_ language: String) -> [String: Entry] { tables[language] ?? [:] }

    private init(language: String, locale: Locale) {
        self.language = language
        self.locale = locale
        table = Self.tables[language] ?? Self.tables["en"] ?? [:]
    }

    /// The table for a catalog's locale (`de`, `hu-HU`), English when its language has none.
    static func forLocale(_ locale: String) -> WebStrings {
        let language = primaryLanguage(locale)
        guard supported.contains(language) else { return WebStrings(language: "en", locale: Locale(identifier: "en")) }
        return WebStrings(
            language: language, locale: Locale(identifier: locale.replacingOccurrences(of: "_", with: "-")))
    }

    /// English.
    static var english: WebStrings { forLocale("en") }

    /// The best supported language of an `Accept-Language` header (`de-AT,de;q=0.9,en;q=0.5`),
    /// English when none matches.
    static func negotiate(_ header: String?) -> WebStrings {
        guard let header else { return english }
        var choices: [(language: String, quality: Double, order: Int)] = []
        for (order, part) in header.split(separator: ",").prefix(32).enumerated() {
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first?.trimmingCharacters(in: .whitespaces), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "q" {
                    quality = Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            let language = primaryLanguage(tag)
            if quality > 0, supported.contains(language) { choices.append((language, quality, order)) }
        }
        guard let best = choices.min(by: { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order })
        else { return english }
        return forLocale(best.language)
    }

    /// `de` of `de-AT`, lowercased.
    static func primaryLanguage(_ tag: String) -> String {
        (tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? tag).lowercased()
    }

    /// The text of `key`; for a plural message, its `other` form.
    subscript(_ key: Key) -> String {
        switch table[key.rawValue] {
        case .text(let text): text
        case .plural(let forms): forms["other"] ?? key.rawValue
        case nil: key.rawValue
        }
    }

    /// The text of `key` with `{name}` placeholders filled in.
    func format(_ key: Key, _ values: KeyValuePairs<String, String>) -> String {
        var text = self[key]
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// The text of `key` around its `{name}` placeholder: what comes before it and after it (all
    /// of the text before it when it has none), for a link in the middle of a sentence.
    func split(_ key: Key, at name: String) -> (before: String, after: String) {
        let text = self[key]
        guard let range = text.range(of: "{\(name)}") else { return (text, "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }

    /// The plural message `key` for `count`, the number written with the locale's separators:
    /// `plural(.results, 1)` is "1 result", `plural(.results, 200000)` "200,000 results".
    func plural(_ key: Key, _ count: Int) -> String {
        let text: String
        switch table[key.rawValue] {
        case .plural(let forms):
            text = forms[PluralRules.category(of: count, language: language)] ?? forms["other"] ?? key.rawValue
        case .text(let single): text = single
        case nil: text = key.rawValue
        }
        return text.replacingOccurrences(of: "{count}", with: number(count))
    }

    /// `200.000` in German, `200 000` in Hungarian, `200,000` in English.
    func number(_ value: Int) -> String {
        value.formatted(.number.locale(locale))
    }

    /// `24,90 €` in German, `€24.90` in English, `HUF 4,990` (no minor unit shown) in English:
    /// the locale's currency format with the digits CLDR shows for the currency
    /// (``CurrencyDigits``), as `Intl.NumberFormat` writes it; a price without a currency as a
    /// plain number. The one price format of the web app: every row, detail page and filter is
    /// drawn with it on the server.
    func price(_ value: Decimal, currency: String?) -> String {
        if let currency, currency.utf8.count == 3, currency.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) {
            let digits = CurrencyDigits.fractionDigits(of: currency)
            return value.formatted(
                .currency(code: currency).precision(.fractionLength(digits)).rounded(rule: .toNearestOrAwayFromZero)
                    .locale(locale))
        }
        return value.formatted(.number.precision(.fractionLength(0...2)).locale(locale))
    }

    /// The label of a field on the detail page and in the filters: the catalog definition's label
    /// in this language, else the role's default label, else the field's own name.
    func fieldLabel(_ field: String, definition: CatalogDefinition) -> String {
        if let label = definition.fieldLabel(field, language: language) { return label }
        if Role(rawValue: field) != nil, case .text(let label) = table["role." + field] { return label }
        return field
    }

    /// A role's default label (`Name` for the title).
    func role(_ role: Role) -> String {
        if case .text(let label) = table["role." + role.rawValue] { return label }
        return role.rawValue
    }

    /// The keys of the message tables; a test checks that every table has every key.
    enum Key: String, CaseIterable, Sendable {
        case language, skipToContent, catalogs, apiLink, search, cancel, noResults, results, resultsCapped
        case records, noDescription, categoryPrefix, back, later, earlier, signIn, signOut, name, password
        case favorites, hot, categories, all, addFavorite, removeFavorite, unreachable, retry, showPassword
        case signInForFavorites, favoritesOnDevice, wrongCredentials, tooManySignIns, seconds, minutes
        case index, pickRecord, noFavorites, details, close, loading, filters, activeFilters, sort
        case sortRelevance, sortTitle, sortTitleDescending, sortPrice, sortPriceDescending, priceRange
        case sortFieldAscending, sortFieldDescending
        case priceFrom, priceTo, apply, resetFilters, imageUnavailable, offlineTitle, offlineText, offlineBanner
        case findValue, similarSpelling, showResults
        case errorTitle, error400, error401, error403, error404, error405, error413, error415, error429
        case error500, error503
        case recordDeleted, catalogDeleted, edit, newRecord, editRecord, save, deleteRecord, conflict, conflictHelp
        case reload, overwrite, recordExists, deletedToast, undo, restored, dismiss, problemsTitle, problemID
        case problemTitle, problemPrice, problemCurrency, problemQuantity, problemCountry, problemCategory
        case problemText, problemRecord, addCategory, newCategory, removeCategory, noCountry, noCurrency
        case translations, otherFields, editNeedsScript, saved, saving, notSaved
        case newCatalog, catalogID, catalogIDHint, catalogTitle, catalogDescription, catalogDescriptionHint
        case catalogLocale, sourceLegend, sourceFile, sourceURL
        case showPreview, previewShown, mappingTitle, mappingDetected, startImport, importing, importRead
        case importFailed, catalogSettings, settingsOf, fieldLabels, saveSettings, dangerZone, deleteHelp
        case deleteConfirm, deleteCatalog, catalogRemoved, problemCatalogID, problemCatalogTitle
        case problemCatalogDescription, problemLocale
        case problemLabel, problemSource, pageNeedsScript
        case share, linkCopied, zoomImage, noResultsHelp, searchEverywhere, showAll, searchCatalogs, appDescription
        case chooseImage, removeImage, imagePreview, uploadingImage, imageNotStored
        case recentlyViewed, clearRecent, offlineSearch
        case visibility, visibilityPublic, visibilityPublicHelp, visibilitySignedIn, visibilitySignedInHelp
        case visibilityMembers, visibilityMembersHelp, didYouMean
    }
}

/// CLDR's cardinal plural rules for whole numbers in the supported languages (integers only:
/// the web app counts records, results, seconds and minutes).
enum PluralRules {
    /// `one`, `many` or `other`.
    static func category(of count: Int, language: String) -> String {
        let n = count.magnitude
        switch language {
        case "fr":
            // one: i = 0,1; many: i != 0 and i % 1000000 = 0.
            if n <= 1 { return "one" }
            return n % 1_000_000 == 0 ? "many" : "other"
        case "es":
            // one: n = 1; many: i != 0 and i % 1000000 = 0.
            if n == 1 { return "one" }
            return n != 0 && n % 1_000_000 == 0 ? "many" : "other"
        case "en", "de", "sv", "hu":
            // one: i = 1 and v = 0 (hu: n = 1), the same for whole numbers.
            return n == 1 ? "one" : "other"
        default:
            return n == 1 ? "one" : "other"
        }
    }
}
