import CatalogModel

/// The two JSON shapes the `items` table stores: an array of strings (`categories`) and an object
/// of typed field values (`fields`). Written by ``JSONOutput`` and read by CatalogModel's JSON
/// reader, so numbers keep their exact literal and `null`, booleans and lists their type. Output
/// is standard JSON, so `sqlite3`, Datasette and SQLite's own `json_*` functions read it.
enum StoredJSON {
    static func encode(strings: [String]) -> String {
        guard !strings.isEmpty else { return "[]" }
        var output = JSONOutput(capacity: 64)
        output.strings(strings)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    static func encode(fields: [String: FieldValue]) -> String {
        guard !fields.isEmpty else { return "{}" }
        var output = JSONOutput(capacity: 256)
        output.fields(fields)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    static func decodeStrings(_ text: String) -> [String] {
        guard text != "[]" else { return [] }
        guard case .list(let values)? = try? FieldValue(json: text) else { return [] }
        return values.compactMap(\.scalarText)
    }

    static func decodeFields(_ text: String) -> [String: FieldValue] {
        guard text != "{}" else { return [:] }
        return (try? FieldValue.fields(json: text)) ?? [:]
    }
}
