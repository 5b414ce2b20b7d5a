import CICU
import CatalogStorage

/// A locale's sort keys and index sections from ICU, for building catalogs: what
/// `CatalogIndexBuilder` asks of a collation.
///
/// ```swift
/// let collation = try ICUCollation(locale: "hu")
/// collation.sectionLabels[collation.section(for: "csirkepaprikás")] // "CS"
/// ```
public struct ICUCollation: CatalogCollating {
    private let collator: Collator
    private let index: SectionIndex

    /// The collation of `locale`.
    ///
    /// - Throws: ``CollationError`` for a malformed or unknown locale.
    public init(locale: String) throws(CollationError) {
        collator = try Collator(locale: locale)
        index = try SectionIndex(locale: locale)
    }

    public var version: String { collator.version }
    public var sectionLabels: [String] { index.labels }
    public func sortKey(_ title: String) -> [UInt8] { collator.sortKey(title) }
    public func section(for title: String) -> Int { index.section(for: title) }

    /// What is wrong with `locale` for a catalog created with it or changed to it, nil when
    /// nothing is: it must be well formed and name a language ICU has data for (`xx` and `tlh` are
    /// well formed, but ICU would only fall back to its root order for them). Imports accept any
    /// well-formed tag, as before.
    public static func problem(knownLocale locale: String) -> String? {
        do {
            try CollationError.validate(locale: locale)
        } catch {
            return error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
        }
        guard isKnown(locale: locale) else {
            return "Unknown locale \"\(locale)\": ICU has no data for its language; use one such as \"de\", \"hu\" "
                + "or \"sv-SE\""
        }
        return nil
    }

    /// Whether `locale` is well formed and ICU has data for its language.
    public static func isKnown(locale: String) -> Bool {
        var tag = locale
        return tag.withUTF8 { bytes in
            bytes.count <= 255 && catalog_icu_locale_is_available(bytes.baseAddress, Int32(bytes.count)) != 0
        }
    }

    /// The collation of `locale`, or a storage error naming the bad locale (for imports).
    public static func forImport(locale: String) throws(StorageError) -> ICUCollation {
        do {
            return try ICUCollation(locale: locale)
        } catch {
            throw StorageError(.invalidArgument, "invalid locale \"\(locale.prefix(40))\": \(error)")
        }
    }
}
