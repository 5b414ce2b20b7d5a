// libFuzzer target: CatalogModel's readers of record changes (a batch, the records of
// `catalog put`, a merge patch) over any bytes; the first byte picks the catalog's definition.
// Any input gives changes or RecordProblems. What reads is written as the API's JSON and read back
// equal, and a patch that applies gives the same record when it is applied again (RFC 7396
// patches are idempotent).
import CatalogModel
import Foundation

/// A catalog named like the roles, the sequencer demo's German names with mapped category values,
/// and the product demo's names with a language.
let definitions: [CatalogDefinition] = {
    let shop = CatalogDefinition(id: "shop", title: "Shop", locale: "en", fieldTypes: ["n": .number, "b": .bool])
    var sequencers = CatalogDefinition(id: "sequencers", title: "Sequenzer", locale: "de")
    sequencers.mapping = [.title: "TitelText", .description: "Kurzbeschreibung", .categories: "Kategorie"]
    sequencers.categoryValues = ["MAC OS X": ["Apple"], "MAC OS X Windows": ["Apple", "Windows"]]
    sequencers.categorySeparator = ";"
    var products = CatalogDefinition(id: "products", title: "Products", locale: "en", language: "de")
    products.mapping = [.title: "name", .subtitle: "manufacturer", .id: "sku", .country: "sku"]
    products.translatedFields = ["color"]
    return [shop, sequencers, products]
}()

/// The record patches are applied to.
let target = Record(
    id: "gulyas", title: "Gulyásleves", subtitle: "Bográcsban", categories: ["Levesek"],
    price: Decimal(string: "24.90"), currency: "HUF", quantity: 3, country: "HU", featured: 1,
    fields: ["weight": .number("1.50"), "title@de": .text("Gulaschsuppe"), "tags": .texts(["a", "b"])])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordChanges(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let definition = definitions[Int(data[0]) % definitions.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if let changes = try? RecordChangeReader.batch(bytes, definition: definition) {
        for case .upsert(let record) in changes { checkRoundTrip(record, definition) }
    }
    if let records = try? RecordChangeReader.records(bytes, definition: definition) {
        for record in records { checkRoundTrip(record, definition) }
    }
    if let patched = try? MergePatch.apply(bytes, to: target, definition: definition) {
        checkRoundTrip(patched, definition)
        guard let again = try? MergePatch.apply(bytes, to: patched, definition: definition) else {
            fatalError("a patch that applied once does not apply to its result")
        }
        guard again == patched else { fatalError("a patch applied twice gave another record") }
    }
    return 0
}

/// A record read is written as the API's JSON and read back equal.
func checkRoundTrip(_ record: Record, _ definition: CatalogDefinition) {
    let json = record.jsonBytes
    guard let again = try? RecordChangeReader.record(json, id: record.id, definition: definition) else {
        fatalError("a record that was read does not read back from its JSON")
    }
    guard again == record else { fatalError("a record changed on a round trip through its JSON") }
}
