import CatalogModel
import Foundation

/// Definitions, records and helpers the record-change tests share.
enum RecordChangeFixtures {
    /// A catalog whose source fields are named like the roles.
    static let shop = CatalogDefinition(id: "shop", title: "Shop", locale: "en")

    /// The sequencer demo's shape: German source names, category values mapped, ids derived.
    static let sequencers: CatalogDefinition = {
        var definition = CatalogDefinition(id: "sequencers", title: "Sequenzer", locale: "de")
        definition.mapping = [.title: "TitelText", .description: "Kurzbeschreibung", .categories: "Kategorie"]
        definition.categoryValues = [
            "MAC OS X": ["Apple"], "Windows": ["Windows"], "MAC OS X Windows": ["Apple", "Windows"],
        ]
        return definition
    }()

    /// The product demo's shape: `name`, `manufacturer`, `details`, `category`.
    static let products: CatalogDefinition = {
        var definition = CatalogDefinition(id: "products", title: "Products", locale: "en")
        definition.mapping = [
            .title: "name", .subtitle: "manufacturer", .description: "details", .categories: "category",
        ]
        definition.fieldOrder = ["id", "name", "manufacturer", "details", "category", "price", "currency", "weight"]
        return definition
    }()

    /// A record with every role, translations and typed extra fields.
    static let full = Record(
        id: "gulyas", title: "Gulyásleves", subtitle: "Bográcsban", description: "Line one\nline two",
        categories: ["Levesek", "Magyar"], price: Decimal(string: "24.90"), currency: "HUF", quantity: -3,
        country: "HU", image: "/images/gulyas.png", featured: 2,
        fields: [
            "title@de": .text("Gulaschsuppe"), "title@en": .text("Goulash soup"), "description@de": .text("Zeile"),
            "weight": .number("1.50"), "big": .number("1E+400"), "vegan": .bool(false), "note": .null,
            "tags": .texts(["hot", "spicy"]), "empty": .list([]),
            "mixed": .list([.text("a"), .number("2"), .null, .bool(true), .list([.text("nested")])]),
            "price@currency": .text("HUF"),
        ])

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The problems `body` throws; empty when it returns.
    static func problems<T>(_ body: () throws(RecordProblems) -> T) -> [RecordProblem] {
        do {
            _ = try body()
            return []
        } catch {
            return error.problems
        }
    }

    /// A record as `catalog export` writes it in JSON: the mapper's source shape, one member per
    /// name (`name@lang` for a translation), repeated names as a list.
    static func exportObject(_ record: Record, definition: CatalogDefinition) -> [UInt8] {
        let source = RecordMapper(definition: definition).sourceRecord(from: record, typedRoles: true)
        var order: [String] = []
        var groups: [String: [SourceField]] = [:]
        for field in source.fields {
            let key = field.language.map { field.name + "@" + $0 } ?? field.name
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(field)
        }
        var output = JSONOutput()
        output.object { object in
            for key in order { object.member(named: key) { $0.value(of: groups[key]!) } }
        }
        return output.bytes
    }

    /// An export's whole document: `{"catalog-definition": {…}, "records": [...]}`.
    static func exportDocument(_ records: [Record], definition: CatalogDefinition) -> [UInt8] {
        var document = bytes(#"{"catalog-definition":{"id":"x"},"records":["#)
        for (index, record) in records.enumerated() {
            if index > 0 { document += bytes(",\n") }
            document += exportObject(record, definition: definition)
        }
        return document + bytes("]}")
    }
}
