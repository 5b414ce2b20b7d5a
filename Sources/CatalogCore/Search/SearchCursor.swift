import CatalogModel
import CatalogStorage

/// Where the next page of a search starts: opaque to clients, checked strictly.
///
/// - Ranked results: the tier and document number of the last result (`r3.1f0x`); the next page
///   continues in that tier after that document, then in the tiers below.
/// - Sorted results (by title, price, or an empty query in index order): the position in that
///   order (`o2a1`).
///
/// Both are base-36 numbers, so a cursor never needs escaping in a URL.
///
/// A catalog whose index has several segments (records changed since its import) names the
/// last result by its place in the order instead, which every segment can find:
///
/// - ranked: `k` and URL-safe base64 of the tier, the rank length, the collation key and the id;
///   in a catalog with a ranking field (``SearchSettings/rankingField``), `v` and the same with
///   the record's value of the field (none for a record without it) after the tier;
/// - sorted by title: `p` and URL-safe base64 of the price (unused today) and the browse key;
/// - sorted by prices and fields: `s` and URL-safe base64 of each key's value
///   (``SortKeyOrder``: what a value is, not a segment's rank of it; none for a record without
///   one) and the browse key. A `p` cursor of a sort by price (made before prices sorted by
///   currency) reads as a price of the catalog's most common currency.
///
/// Such a cursor keeps working across changes and merges: the next page starts right after
/// the same place, so no record that did not itself change is repeated or skipped.
public enum SearchCursor: Sendable, Equatable {
    case ranked(tier: Int, document: Int)
    case ordered(position: Int)
    case rankedKey(tier: Int, length: Int, sortKey: [UInt8], id: String)
    case rankedValueKey(tier: Int, value: [UInt8]?, length: Int, sortKey: [UInt8], id: String)
    case orderedKey(price: Double?, key: BrowseKey)
    case sortedKey(values: [[UInt8]?], key: BrowseKey)

    /// The text form.
    public var text: String {
        switch self {
        case .ranked(let tier, let document): "r\(tier).\(String(document, radix: 36))"
        case .ordered(let position): "o\(String(position, radix: 36))"
        case .rankedKey(let tier, let length, let sortKey, let id):
            "k" + Self.base64([UInt8(tier)] + Self.u16(length) + Self.u16(sortKey.count) + sortKey + Array(id.utf8))
        case .rankedValueKey(let tier, let value, let length, let sortKey, let id):
            "v"
                + Self.base64(
                    [UInt8(tier)] + Self.value(value) + Self.u16(length) + Self.u16(sortKey.count) + sortKey
                        + Array(id.utf8))
        case .orderedKey(let price, let key):
            "p"
                + Self.base64(
                    (price.map { [1] + Self.u64($0.bitPattern) } ?? [0]) + Self.u16(key.section)
                        + Self.u16(key.sortKey.count) + key.sortKey + Array(key.id.utf8))
        case .sortedKey(let values, let key):
            "s"
                + Self.base64(
                    [UInt8(values.count)] + values.flatMap(Self.value)
                        + Self.u16(key.section) + Self.u16(key.sortKey.count) + key.sortKey + Array(key.id.utf8))
        }
    }

    /// A sort key's value: 0 for none, or 1, its u16 length and its bytes.
    private static func value(_ value: [UInt8]?) -> [UInt8] {
        value.map { [1] + u16($0.count) + $0 } ?? [0]
    }

    /// A value ``value(_:)`` wrote at `offset`, and the offset after it; nil when malformed.
    private static func readValue(_ bytes: [UInt8], at offset: Int) -> (value: [UInt8]?, end: Int)? {
        guard offset < bytes.count else { return nil }
        let flag = bytes[offset]
        if flag == 0 { return (nil, offset + 1) }
        guard flag == 1, bytes.count >= offset + 3 else { return nil }
        let length = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8
        let start = offset + 3
        guard bytes.count >= start + length else { return nil }
        return (Array(bytes[start..<(start + length)]), start + length)
    }

    private static func u16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    private static func u64(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        Base64URL.encode(bytes)
    }

    /// The bytes of a keyed cursor's text after its letter, nil when it is not URL-safe base64.
    private static func bytes(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= BrowseCursor.maxTextLength else { return nil }
        return Base64URL.decode(text)
    }

    /// A key (collation key, then id) from `bytes` at `offset`: u16 key length, key, id.
    private static func key(_ bytes: [UInt8], at offset: Int) -> (sortKey: [UInt8], id: String)? {
        guard bytes.count >= offset + 2 else { return nil }
        let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        let start = offset + 2
        guard length <= BrowseCursor.maxKeyBytes, bytes.count >= start + length,
            bytes.count - start - length <= BrowseCursor.maxIDBytes,
            let id = String(validating: bytes[(start + length)...], as: UTF8.self)
        else { return nil }
        return (Array(bytes[start..<(start + length)]), id)
    }

    /// Parses a cursor of a previous page.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` for anything else.
    public init(parsing text: String) throws(StorageError) {
        func number(_ digits: Substring) -> Int? {
            guard (1...12).contains(digits.utf8.count),
                digits.utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) })
            else { return nil }
            return Int(digits, radix: 36)
        }
        let invalid = StorageError(.invalidArgument, "invalid cursor \"\(text.prefix(32))\"")
        if text.hasPrefix("r") {
            let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let tier = Int(parts[0]), (0..<RankStep.maxCount).contains(tier),
                parts[0].utf8.allSatisfy({ (48...57).contains($0) }), let document = number(parts[1])
            else { throw invalid }
            self = .ranked(tier: tier, document: document)
        } else if text.hasPrefix("o"), let position = number(text.dropFirst()) {
            self = .ordered(position: position)
        } else if text.hasPrefix("k"), let bytes = Self.bytes(text.dropFirst()), bytes.count >= 3,
            Int(bytes[0]) < RankStep.maxCount, let (sortKey, id) = Self.key(bytes, at: 3)
        {
            self = .rankedKey(tier: Int(bytes[0]), length: Int(bytes[1]) | Int(bytes[2]) << 8, sortKey: sortKey, id: id)
        } else if text.hasPrefix("v"), let bytes = Self.bytes(text.dropFirst()), bytes.count >= 4,
            Int(bytes[0]) < RankStep.maxCount, let (value, end) = Self.readValue(bytes, at: 1),
            bytes.count >= end + 2, let (sortKey, id) = Self.key(bytes, at: end + 2)
        {
            self = .rankedValueKey(
                tier: Int(bytes[0]), value: value, length: Int(bytes[end]) | Int(bytes[end + 1]) << 8,
                sortKey: sortKey, id: id)
        } else if text.hasPrefix("p"), let bytes = Self.bytes(text.dropFirst()), let flag = bytes.first, flag <= 1,
            bytes.count >= (flag == 1 ? 9 : 1) + 2
        {
            var offset = 1
            var price: Double?
            if flag == 1 {
                price = Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[1 + $1]) << (8 * $1) })
                offset = 9
            }
            let section = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            guard let (sortKey, id) = Self.key(bytes, at: offset + 2) else { throw invalid }
            self = .orderedKey(price: price, key: BrowseKey(section: section, sortKey: sortKey, id: id))
        } else if text.hasPrefix("s"), let bytes = Self.bytes(text.dropFirst()), let count = bytes.first,
            (1...Int(SearchSort.maxKeys)).contains(Int(count))
        {
            var offset = 1
            var values: [[UInt8]?] = []
            for _ in 0..<count {
                guard let (value, end) = Self.readValue(bytes, at: offset) else { throw invalid }
                values.append(value)
                offset = end
            }
            guard bytes.count >= offset + 2, let (sortKey, id) = Self.key(bytes, at: offset + 2) else { throw invalid }
            let section = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            self = .sortedKey(values: values, key: BrowseKey(section: section, sortKey: sortKey, id: id))
        } else {
            throw invalid
        }
    }
}
