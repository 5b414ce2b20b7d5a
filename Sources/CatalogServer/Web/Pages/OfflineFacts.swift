import CatalogJSON
import CatalogModel

/// What a row tells the web app's offline search (offline-search.js) about its record, so that
/// a search without a network keeps its scope, filters and order over the rows the device saved:
/// a row's `data-filter`, a small JSON object.
///
/// - `c`: the categories (a scope's and the category filters' labels, as records have them);
/// - `n`: the country code; `p`: the price; `$`: its currency;
/// - `f`: for each record field the filter sheet offers or the catalog sorts by, the value keys
///   (`k`, ``FieldValueOrder/valueKey(_:)``: what a checked value is compared by), the numbers
///   (`n`) and the dates (`d`, seconds since 1970) its values read as (``FieldValueOrder``).
///
/// The server reads every value here, by the rules its filters and sorts use, so the script
/// compares ready values and parses none. Members without a value are left out.
enum OfflineFacts {
    /// The most values of one field a row carries.
    static let maxValues = 20

    /// The `data-filter` of a record's row (nil when it has nothing to say); `fields`: the record
    /// fields to carry.
    static func json(_ record: Record, fields: [String]) -> String? {
        var output = JSONOutput(capacity: 96)
        output.object { object in
            if !record.categories.isEmpty { object.strings("c", record.categories) }
            if let country = record.country { object.string("n", country.uppercased()) }
            if let price = record.price { object.member("p") { $0.number(literal: DecimalText.format(price)) } }
            if let currency = record.currency { object.string("$", currency) }
            let present = fields.compactMap { name in record.fields[name].map { (name, $0.values.prefix(maxValues)) } }
            guard !present.isEmpty else { return }
            object.member("f") { output in
                output.object { byField in
                    for (name, values) in present {
                        byField.member(named: name) { write(values, to: &$0) }
                    }
                }
            }
        }
        return output.bytes.count > 2 ? String(decoding: output.bytes, as: UTF8.self) : nil
    }

    /// One field's facts: its values' keys, and the numbers and dates they read as (a value is
    /// a number, else maybe a date, as the index reads it).
    private static func write(_ values: ArraySlice<String>, to output: inout JSONOutput) {
        var numbers: [Double] = []
        var dates: [Double] = []
        for value in values {
            if let number = FieldValueOrder.number(value) {
                numbers.append(number)
            } else if let date = FieldValueOrder.date(value) {
                dates.append(date)
            }
        }
        output.object { facts in
            facts.strings("k", values.map(FieldValueOrder.valueKey))
            if !numbers.isEmpty { facts.member("n") { $0.array(numbers, Self.number) } }
            if !dates.isEmpty { facts.member("d") { $0.array(dates, Self.number) } }
        }
    }

    /// A finite number as JSON writes it (as the filter sheet's inputs show it).
    private static func number(_ output: inout JSONOutput, _ value: Double) {
        output.number(literal: FilterPanel.bound(value))
    }

    /// The record fields a list's rows carry: those the filter sheet offers and those it sorts by.
    static func fields(sheet: [FilterPanel.SheetField], sortable: [String]) -> [String] {
        var names = sheet.map(\.name)
        for name in sortable where !names.contains(name) { names.append(name) }
        return names
    }
}
