import CICU

/// The alphabetic sections of a locale ("A", "B", … "#"), as ICU's `AlphabeticIndex` defines them.
///
/// ```swift
/// let index = try SectionIndex(locale: "hu")
/// index.label(for: "csirkepaprikás")  // "CS"
/// index.label(for: "cukor")           // "C"
/// index.label(for: "123 Widgets")     // "#"
/// ```
///
/// The labels are the locale's index letters from CLDR, with letters that differ only by accent
/// or case (at primary strength) merged by ICU. When the locale's letters are not Latin
/// (ja, ru, el, …) the English letters A–Z are added so Latin titles still get a letter.
/// Everything else (digits, punctuation, other scripts, the empty string) goes to one last
/// section, "#".
///
/// Thread safety: sections are looked up in ICU's `ImmutableIndex`, which ICU documents as
/// immutable and thread-safe, and the labels are copied into Swift at init; the pointer is never
/// reassigned before `deinit`; hence `@unchecked Sendable`.
public final class SectionIndex: @unchecked Sendable {
    /// The locale tag this index was opened with, exactly as given.
    public let locale: String
    /// Every section label in index order, without duplicates; the last one is always `"#"`.
    public let labels: [String]

    /// The owned ICU index, closed in `deinit`.
    private let handle: OpaquePointer

    /// Opens the sections of a locale.
    ///
    /// Accepts the same tags as ``Collator/init(locale:)``; a language ICU has no index letters
    /// for gets the English letters A–Z.
    ///
    /// - Parameter locale: A BCP 47 language tag, such as `"de"`, `"sv-SE"` or `"ja"`.
    /// - Throws: ``CollationError`` with code ``CollationError/Code/invalidLocale`` for an empty or
    ///   malformed tag, or ``CollationError/Code/icuFailure`` when ICU fails.
    public init(locale: String) throws(CollationError) {
        try CollationError.validate(locale: locale)
        var tag = locale
        var status: Int32 = 0
        let handle = tag.withUTF8 { catalog_icu_index_open($0.baseAddress, Int32($0.count), &status) }
        guard let handle else {
            throw CollationError.icu(status, "alphabetic index", locale: locale)
        }
        self.handle = handle
        self.locale = locale
        self.labels = (0..<catalog_icu_index_label_count(handle)).map { i in
            var length: Int32 = 0
            guard let label = catalog_icu_index_label(handle, i, &length) else { return "#" }
            return label.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            }
        }
    }

    deinit {
        catalog_icu_index_close(handle)
    }

    /// Returns the position in ``labels`` of the section `title` belongs to.
    ///
    /// Titles that start with no index letter (digits, punctuation, other scripts, the empty
    /// string) get the position of `"#"`, the last label.
    ///
    /// - Parameter title: The title to file.
    /// - Returns: An index into ``labels``.
    public func section(for title: String) -> Int {
        var title = title
        return title.withUTF8 { Int(catalog_icu_index_section(handle, $0.baseAddress, Collator.length($0))) }
    }

    /// Returns the label of the section `title` belongs to, such as `"A"`, `"CS"` or `"#"`.
    ///
    /// - Parameter title: The title to file.
    /// - Returns: One of ``labels``.
    public func label(for title: String) -> String {
        labels[section(for: title)]
    }
}
