import Foundation

/// What a record's row and detail page show of it, by the catalog's settings
/// (``SearchSettings/listFields``, ``SearchSettings/detailFields``): the one rule the web app's
/// rows and pages follow, and apps built on the client library can.
///
/// ```swift
/// let line = RecordDisplay.listLine(record, fields: settings.listFields, categoryPrefix: "Kategorie")
/// // [("subtitle", "Teehaus am Markt")], or with listFields ["Origin", "Year"]: [("Origin", "Japan"), ("Year", "1972")]
/// ```
public enum RecordDisplay {
    /// The parts of a row's line under the title, each with the field it shows. Without `fields`:
    /// the subtitle, or without one the categories after `categoryPrefix` (`Kategorie Tee, Kaffee`).
    /// With them: each named field's value that is not empty, in order (`subtitle`, `categories`,
    /// `description`, `id`, or a record field, its values joined by commas).
    public static func listLine(_ record: Record, fields: [String]?, categoryPrefix: String) -> [(
        field: String, text: String
    )] {
        guard let fields else {
            if let subtitle = record.subtitle, !subtitle.isEmpty { return [("subtitle", subtitle)] }
            guard !record.categories.isEmpty else { return [] }
            return [("categories", categoryPrefix + " " + record.categories.joined(separator: ", "))]
        }
        return fields.compactMap { field in
            let text = value(of: field, in: record).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : (field, text)
        }
    }

    /// A field's value as a row shows it: a role (`subtitle`, `categories`, `description`, `id`)
    /// or a record field, several values joined by commas; empty when the record has none.
    public static func value(of field: String, in record: Record) -> String {
        switch field {
        case "subtitle": return record.subtitle ?? ""
        case "categories": return record.categories.joined(separator: ", ")
        case "description": return record.description ?? ""
        case "id": return record.id
        default: return record.fields[field]?.values.joined(separator: ", ") ?? ""
        }
    }

    /// The record fields a detail page shows, in order: `detailFields` when the catalog lists
    /// them (those the record has), else every field, the source's order (`fieldOrder`) first,
    /// then the others by name.
    public static func detailFields(_ record: Record, definition: CatalogDefinition) -> [String] {
        detailFields(record, listed: definition.searchSettings.detailFields, fieldOrder: definition.fieldOrder)
    }

    /// ``detailFields(_:definition:)`` from the settings' list and the source's field order
    /// (as ``CatalogDetail`` carries them to apps).
    public static func detailFields(_ record: Record, listed: [String]?, fieldOrder: [String]) -> [String] {
        if let listed { return listed.filter { record.fields[$0] != nil } }
        let ordered = fieldOrder.filter { record.fields[$0] != nil }
        return ordered + record.fields.keys.filter { !ordered.contains($0) }.sorted()
    }

    /// What stands between the parts of a row's line.
    public static let separator = " · "
}
