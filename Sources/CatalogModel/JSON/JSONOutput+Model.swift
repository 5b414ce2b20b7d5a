@_exported import CatalogJSON
import Foundation

// The writer lives in CatalogJSON, below the model, so the HTTP layer writes JSON without the
// domain model; every target that imports CatalogModel sees it too, as Hummingbird re-exports
// HTTPTypes. What follows writes the model's own values.

extension JSONOutput {
    /// Appends an exact decimal number, or `null`.
    public mutating func decimal(_ value: Decimal?) {
        guard let value, !value.isNaN else { return raw("null") }
        append(json: DecimalText.format(value).utf8)
    }

    /// Appends a field value with its type: a string, a number literal, `true`/`false`, `null`,
    /// or an array of values.
    public mutating func value(_ value: FieldValue) {
        switch value {
        case .text(let text): string(text)
        case .number(let literal): number(literal: literal)
        case .bool(let flag): boolean(flag)
        case .null: raw("null")
        case .list(let values): array(values) { output, element in output.value(element) }
        }
    }

    /// Appends an object of field values, keys sorted (what ``FieldValue/fields(json:)`` reads).
    public mutating func fields(_ fields: [String: FieldValue]) {
        object { object in
            for name in fields.keys.sorted() {
                object.member(named: name) { $0.value(fields[name]!) }
            }
        }
    }
}
