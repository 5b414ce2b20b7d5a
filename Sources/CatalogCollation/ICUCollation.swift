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

    /// The collation of `locale`, or a storage error naming the bad locale (for imports).
    public static func forImport(locale: String) throws(StorageError) -> ICUCollation {
        do {
            return try ICUCollation(locale: locale)
        } catch {
            throw StorageError(.invalidArgument, "invalid locale \"\(locale.prefix(40))\": \(error)")
        }
    }
}
