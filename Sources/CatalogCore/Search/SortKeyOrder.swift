import CatalogModel
import Foundation

/// How the values of a sort's keys (``SearchSort``) compare: the one rule a segment's order
/// (``SortColumn``), the merge of segments' pages and a cursor's place follow, on every engine
/// and offline.
///
/// A value is bytes that say what it is, so that it means the same in every segment and in a
/// cursor (a segment's ranks do not):
///
/// - a field's number: `0` and the eight ``FieldValueOrder/sortable(_:)`` bytes; a date: `1` and
///   its eight bytes; a text: `2` and its UTF-8. Numbers come before dates, dates before texts;
///   texts compare by the catalog's collation (Foundation's, of the catalog's locale, which the
///   client library has too), then byte by byte, so that the order is total.
/// - a price: its currency code, a zero byte and its eight ordered bytes. ``SearchSort/priceRule``:
///   the most common currency first, then the others by code, then prices without a currency;
///   within a currency by price, in the key's direction.
///
/// A record without a value (nil) comes after every record with one, in both directions.
struct SortKeyOrder: Sendable {
    /// The catalog's locale, for texts.
    let locale: Locale
    /// The code of the catalog's most common currency ("" for none).
    let mainCurrency: String

    init(locale: String, mainCurrency: String) {
        self.locale = Locale(identifier: locale)
        self.mainCurrency = mainCurrency
    }

    static let numberClass: UInt8 = 0
    static let dateClass: UInt8 = 1
    static let textClass: UInt8 = 2

    /// A price's value: its currency code (upper case, "" for none), a zero byte, its ordered bytes.
    static func price(_ price: Double, currency: String) -> [UInt8] {
        Array(currency.uppercased().utf8) + [0] + FieldValueOrder.sortable(price)
    }

    /// Negative when `a` comes first under `key`, positive when `b` does, zero when they tie (the
    /// next key decides). `.title` keys compare by browse key, not here.
    func compare(_ a: [UInt8]?, _ b: [UInt8]?, _ key: SearchSort.Key) -> Int {
        guard let a, let b else { return a == nil ? (b == nil ? 0 : 1) : -1 }
        switch key.field {
        case .title: return 0
        case .price:
            let (codeA, priceA) = Self.split(price: a)
            let (codeB, priceB) = Self.split(price: b)
            if codeA != codeB {
                let groupA = codeA == mainCurrency ? 0 : codeA.isEmpty ? 2 : 1
                let groupB = codeB == mainCurrency ? 0 : codeB.isEmpty ? 2 : 1
                if groupA != groupB { return groupA < groupB ? -1 : 1 }
                return Self.bytes(codeA, codeB)
            }
            let order = Self.bytes(priceA, priceB)
            return key.descending ? -order : order
        case .field:
            let order = compareFields(a, b)
            return key.descending ? -order : order
        }
    }

    /// Two field values in ascending order (class, then collation or bytes).
    func compareFields(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard let classA = a.first, let classB = b.first else { return a.isEmpty ? (b.isEmpty ? 0 : -1) : 1 }
        if classA != classB { return classA < classB ? -1 : 1 }
        if classA == Self.textClass {
            let textA = String(decoding: a.dropFirst(), as: UTF8.self)
            let textB = String(decoding: b.dropFirst(), as: UTF8.self)
            switch textA.compare(textB, options: [], range: nil, locale: locale) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame: break
            }
        }
        return Self.bytes(a[...], b[...])
    }

    private static func split(price bytes: [UInt8]) -> (code: String, price: ArraySlice<UInt8>) {
        let zero = bytes.firstIndex(of: 0) ?? bytes.count
        return (String(decoding: bytes[..<zero], as: UTF8.self), bytes[min(zero + 1, bytes.count)...])
    }

    private static func bytes(_ a: String, _ b: String) -> Int {
        bytes(Array(a.utf8)[...], Array(b.utf8)[...])
    }

    private static func bytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        if a == b { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }
}
