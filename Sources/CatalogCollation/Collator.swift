import CICU

/// Compares strings and builds binary sort keys in the order of one locale, with ICU.
///
/// ```swift
/// let collator = try Collator(locale: "de")
/// collator.compare("Äpfel", "Bär")                          // -1
/// collator.sortKey("Äpfel").lexicographicallyPrecedes(collator.sortKey("Bär"))  // true
/// ```
///
/// Strength is ICU's default (tertiary): case and accents break ties only between otherwise equal
/// strings.
///
/// Thread safety: the ICU collator is only used through `const` methods after it is opened, which
/// ICU documents as safe to call from many threads at once, and the pointer is never reassigned
/// before `deinit`; hence `@unchecked Sendable`.
public final class Collator: @unchecked Sendable {
    /// The locale tag this collator was opened with, exactly as given.
    public let locale: String
    /// ICU's version of this collator's rules and data, such as `"153.120"` (ICU 72).
    ///
    /// Sort keys from one version may not compare correctly with keys from another: store it
    /// next to persisted keys and rebuild them when it changes.
    public let version: String

    /// The owned ICU collator, closed in `deinit`.
    private let handle: OpaquePointer

    /// Opens the collator of a locale.
    ///
    /// Any well-formed BCP 47 tag is accepted (`_` also works as a separator, as in `"de_DE"`);
    /// for a language ICU has no rules for, it falls back to the root order. Extensions such as
    /// `"de-u-co-phonebk"` select a variant.
    ///
    /// - Parameter locale: A BCP 47 language tag, such as `"de"`, `"sv-SE"` or `"hu"`.
    /// - Throws: ``CollationError`` with code ``CollationError/Code/invalidLocale`` for an empty or
    ///   malformed tag (spaces, non-ASCII, ICU-style `@` keywords), or
    ///   ``CollationError/Code/icuFailure`` when ICU fails.
    public init(locale: String) throws(CollationError) {
        try CollationError.validate(locale: locale)
        var tag = locale
        var status: Int32 = 0
        let handle = tag.withUTF8 { catalog_icu_collator_open($0.baseAddress, Int32($0.count), &status) }
        guard let handle else {
            throw CollationError.icu(status, "collator", locale: locale)
        }
        self.handle = handle
        self.locale = locale
        var version = [CChar](repeating: 0, count: 32)
        catalog_icu_collator_version(handle, &version, Int32(version.count))
        self.version = String(decoding: version.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        catalog_icu_collator_close(handle)
    }

    /// Returns the binary sort key of `text`.
    ///
    /// Comparing two keys byte by byte (`memcmp`, SQLite's `BLOB` order, or
    /// `lexicographicallyPrecedes` on the arrays) gives the same order as ``compare(_:_:)``.
    /// ICU's terminating zero byte is left off: a key that is a prefix of another sorts first.
    ///
    /// - Parameter text: The string to key.
    /// - Returns: The key's bytes.
    public func sortKey(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { utf8 in
            let length = Self.length(utf8)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.stackKeyCapacity) { stack in
                let needed = Int(
                    catalog_icu_collator_sort_key(
                        handle, utf8.baseAddress, length, stack.baseAddress, Int32(Self.stackKeyCapacity)
                    )
                )
                if needed <= Self.stackKeyCapacity {
                    return Array(stack.prefix(max(needed - 1, 0)))
                }
                return [UInt8](unsafeUninitializedCapacity: needed) { key, count in
                    let written = Int(
                        catalog_icu_collator_sort_key(handle, utf8.baseAddress, length, key.baseAddress, Int32(needed))
                    )
                    count = written <= needed ? max(written - 1, 0) : 0
                }
            }
        }
    }

    /// Compares two strings in the locale's order.
    ///
    /// - Parameters:
    ///   - a: The first string.
    ///   - b: The second string.
    /// - Returns: -1 when `a` sorts before `b`, 0 when they are equal at every strength, 1 when
    ///   `a` sorts after `b`.
    public func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { first in
            b.withUTF8 { second in
                Int(
                    catalog_icu_collator_compare(
                        handle, first.baseAddress, Self.length(first), second.baseAddress, Self.length(second)
                    )
                )
            }
        }
    }

    /// Keys up to this many bytes are built on the stack and copied once into the result.
    private static let stackKeyCapacity = 512

    /// The byte count of a UTF-8 buffer as ICU's `int32_t`.
    static func length(_ utf8: UnsafeBufferPointer<UInt8>) -> Int32 {
        precondition(utf8.count <= Int(Int32.max), "String longer than ICU's 2 GiB limit")
        return Int32(utf8.count)
    }
}
