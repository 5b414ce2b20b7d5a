import CatalogModel
import Foundation

/// The JSON columns every engine stores the same way: a catalog's definition, section labels
/// and categories, and a record's category labels. One encoding for all engines, so either
/// reads what the other wrote and a copied catalog holds the same text.
public enum StoredColumns {
    /// A record's category labels as a JSON array of strings (`[]` for none).
    public static func labels(_ labels: [String]) -> String {
        guard !labels.isEmpty else { return "[]" }
        var output = JSONOutput(capacity: 64)
        output.strings(labels)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Labels stored by ``labels(_:)``, read without `JSONDecoder` (this runs for every hit a
    /// page shows); anything malformed gives what was read up to there.
    public static func labels(json: [UInt8]) -> [String] {
        guard json != Self.emptyArray else { return [] }
        return json.withUnsafeBufferPointer { bytes in
            var labels: [String] = []
            var index = 0
            var current: [UInt8] = []
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                guard inString else {
                    if byte == 0x22 { inString = true }
                    continue
                }
                switch byte {
                case 0x22:
                    labels.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                    inString = false
                case 0x5C where index < bytes.count:
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x6E: current.append(0x0A)
                    case 0x72: current.append(0x0D)
                    case 0x74: current.append(0x09)
                    case 0x62: current.append(0x08)
                    case 0x66: current.append(0x0C)
                    case 0x75:
                        guard var value = hex(bytes, &index) else { return labels }
                        if (0xD800..<0xDC00).contains(value), index + 1 < bytes.count, bytes[index] == 0x5C,
                            bytes[index + 1] == 0x75
                        {
                            index += 2
                            guard let low = hex(bytes, &index) else { return labels }
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        }
                        current.append(contentsOf: String(Unicode.Scalar(value) ?? "\u{FFFD}").utf8)
                    default: current.append(escape)
                    }
                default:
                    current.append(byte)
                }
            }
            return labels
        }
    }

    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    private static let emptyArray = Array("[]".utf8)

    /// A definition as stored: deterministic JSON (sorted keys, slashes unescaped).
    public static func definition(_ definition: CatalogDefinition) throws -> String {
        String(decoding: try encoder.encode(definition), as: UTF8.self)
    }

    /// The catalog row's JSON columns for what an import built.
    public static func encode(_ catalog: IndexedCatalog) throws -> (
        definition: String, sectionLabels: String, categories: String
    ) {
        (
            try definition(catalog.definition),
            String(decoding: try encoder.encode(catalog.sectionLabels), as: UTF8.self),
            String(decoding: try encoder.encode(catalog.categories), as: UTF8.self)
        )
    }

    /// A catalog's description from its row.
    ///
    /// - Throws: ``StorageError`` `.engine` when a JSON column is damaged.
    public static func catalog(
        summary: CatalogSummary, definition: [UInt8], sectionLabels: [UInt8], categories: [UInt8],
        collationVersion: String, versionKey: String
    ) throws -> StoredCatalog {
        let decoder = JSONDecoder()
        do {
            return StoredCatalog(
                definition: try decoder.decode(CatalogDefinition.self, from: Data(definition)), summary: summary,
                sectionLabels: try decoder.decode([String].self, from: Data(sectionLabels)),
                categories: try decoder.decode([CategoryCount].self, from: Data(categories)),
                collationVersion: collationVersion, versionKey: versionKey)
        } catch {
            throw StorageError(.engine, "the stored description of catalog \"\(summary.id)\" is damaged")
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
