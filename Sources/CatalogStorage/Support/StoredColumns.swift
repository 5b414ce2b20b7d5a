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

    /// Labels stored by ``labels(_:)``, read with CatalogModel's JSON reader (no `JSONDecoder`:
    /// this runs for every hit a page shows); damaged text reads as none.
    public static func labels(json: [UInt8]) -> [String] {
        guard json != Self.emptyArray else { return [] }
        return (try? [String](jsonStrings: json)) ?? []
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
        collationVersion: String, versionKey: String, change: Int = 0
    ) throws -> StoredCatalog {
        let decoder = JSONDecoder()
        do {
            let definition = try decoder.decode(CatalogDefinition.self, from: Data(definition))
            var summary = summary
            summary.visibility = definition.visibility
            summary.description = definition.description
            return StoredCatalog(
                definition: definition, summary: summary,
                sectionLabels: try decoder.decode([String].self, from: Data(sectionLabels)),
                categories: try decoder.decode([CategoryCount].self, from: Data(categories)),
                collationVersion: collationVersion, versionKey: versionKey, change: change)
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
