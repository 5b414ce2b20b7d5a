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

    /// Whether `text` looks like a language tag: an ISO 639 code (two or three lower-case
    /// letters), then optional subtags of 2 to 8 letters or digits after `-` or `_`.
    public static func isTag(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count),
            first.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }), isoCodes.contains(String(first))
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count)
                && part.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) }
        }
    }

    /// ISO 639 language codes Foundation knows.
    private static let isoCodes: Set<String> = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
}
