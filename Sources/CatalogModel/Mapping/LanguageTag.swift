import Foundation

/// Language tags as translations carry them (`de`, `pt_BR`, `zh-Hans`, `sr@latin`): matching
/// a wanted language, and recognizing a tag at the end of a field name (`name@de`, `name_de`,
/// `name.de`).
public enum LanguageTag {
    /// The tag of texts without a language when they are kept beside a translation (`title@und`,
    /// BCP 47's "undetermined").
    public static let undetermined = "und"

    /// `tag` lower-cased with `_` as `-`, for comparisons.
    public static func normalized(_ tag: String) -> String {
        tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// The primary language subtag (`pt` of `pt_BR`, `sr` of `sr@latin`), lower-cased.
    public static func primary(_ tag: String) -> String {
        let normalized = normalized(tag)
        return String(normalized.prefix { $0 != "-" && $0 != "@" })
    }

    /// Whether `tag` names the language `wanted`: the same tag, ignoring case and `_`/`-`.
    public static func matches(_ tag: String, _ wanted: String) -> Bool {
        normalized(tag) == normalized(wanted)
    }

    /// Whether `text` looks like a language tag: a language code, then optional subtags of 2 to 8
    /// letters or digits after `-` or `_` (`pt_BR`, `zh-Hant-HK`), then an optional POSIX
    /// modifier of 2 to 12 of them after `@` (`sr@latin`, `ca@valencia`, `sd@devanagari`).
    ///
    /// The language code is two or three lower-case letters that ISO 639 as Foundation knows it
    /// holds, or that CLDR has an English name for (`mhr`, `quz`): a suffix such as `_old` or
    /// `_usd` is not a language.
    public static func isTag(_ text: Substring) -> Bool {
        var tag = text
        if let at = text.firstIndex(of: "@") {
            let modifier = text[text.index(after: at)...]
            guard (2...12).contains(modifier.count), modifier.utf8.allSatisfy(isASCIIAlphanumeric) else {
                return false
            }
            tag = text[..<at]
        }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, isLanguageCode(first) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.utf8.allSatisfy(isASCIIAlphanumeric)
        }
    }

    private static func isLanguageCode(_ text: Substring) -> Bool {
        guard (2...3).contains(text.count), text.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return false }
        let code = String(text)
        return isoCodes.contains(code) || englishNames.localizedString(forLanguageCode: code) != nil
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || (byte >= 0x30 && byte <= 0x39)
    }

    /// CLDR's English names of languages, for codes beyond Foundation's ISO list.
    private static let englishNames = Locale(identifier: "en")

    /// ISO 639 language codes Foundation knows.
    private static let isoCodes: Set<String> = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
}
