import CICU
import CatalogModel

/// Country names in a locale's language from ICU, for imports whose country field names countries
/// in the catalog's language (`Deutschland`, `Magyarország`, `Suède`).
///
/// ```swift
/// let names = ICUCountryNames.names(locale: "de")
/// names[CountryCode.nameKey("Deutschland")]  // "DE"
/// ```
public enum ICUCountryNames {
    /// Every assigned country's name in `locale`, as ``CountryCode/nameKey(_:)`` folds it, to its
    /// alpha-2 code; empty for a locale ICU has no names for.
    public static func names(locale: String) -> [String: String] {
        var names: [String: String] = [:]
        var buffer = [CChar](repeating: 0, count: 512)
        let tag = Array(locale.utf8CString.dropLast())
        for code in CountryCode.assigned.sorted() {
            let length = tag.withUnsafeBufferPointer { tagBuffer in
                buffer.withUnsafeMutableBufferPointer { out in
                    catalog_icu_country_name(
                        tagBuffer.baseAddress, Int32(tagBuffer.count), code, out.baseAddress, Int32(out.count))
                }
            }
            guard length > 0 else { continue }
            let name = buffer.withUnsafeBufferPointer { out in
                String(decoding: UnsafeRawBufferPointer(start: out.baseAddress, count: Int(length)), as: UTF8.self)
            }
            let key = CountryCode.nameKey(name)
            if !key.isEmpty, names[key] == nil { names[key] = code }
        }
        return names
    }
}
