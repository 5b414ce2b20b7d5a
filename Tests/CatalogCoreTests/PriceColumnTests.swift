@testable import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import Testing

/// A segment's price column is made from the documents in price order the index keeps, and is
/// the same as the one a radix sort of the prices makes for an index without that order.
@Suite struct PriceColumnTests {
    @Test func theStoredPriceOrderMakesTheSameColumnAsSortingThePrices() throws {
        let definition = CatalogDefinition(id: "t", title: "T", locale: "de")
        let builder = try CatalogIndexBuilder(definition: definition, collation: LetterCollation())
        var records = IndexBuilderTests.records()
        // Ties in price, several currencies, and a zero written as -0.
        records.append(Record(id: "z1", title: "Null", price: 0, currency: "EUR"))
        records.append(Record(id: "z2", title: "Minus null", price: Decimal(string: "-0"), currency: "EUR"))
        records.append(Record(id: "z3", title: "Same price", price: 0, currency: "USD"))
        for record in records { try builder.add(record) }
        let memory = MemoryIndex()
        _ = try builder.finish(into: memory)
        #expect(memory.blobs[DocumentAttributes.priceOrderBlob] != nil)

        let order = SortKeyOrder(locale: "de", mainCurrency: "EUR")
        // The stored order runs in ascending price, so it is the one taken.
        let index = try CatalogSearchIndex(reader: memory)
        let prices = try index.prices(memory)
        let currencies = [UInt32](repeating: 0, count: index.count)
        #expect(try SortColumn.pricedInStoredOrder(prices, index.priceOrder(memory), currencies) != nil)
        let stored = try SortColumn.price(index: CatalogSearchIndex(reader: memory), reader: memory, order: order)
        memory.blobs[DocumentAttributes.priceOrderBlob] = nil
        let sorted = try SortColumn.price(index: CatalogSearchIndex(reader: memory), reader: memory, order: order)

        #expect(stored.valueCount == sorted.valueCount)
        #expect(stored.valueCount > 100)
        for document in 0..<stored.lowest.count {
            for descending in [false, true] {
                #expect(
                    stored.value(of: document, descending: descending)
                        == sorted.value(of: document, descending: descending))
                #expect(
                    stored.bucket(of: document, descending: descending)
                        == sorted.bucket(of: document, descending: descending))
            }
        }
    }

    /// The radix sorts the price column is made with keep equal entries in their order, by key
    /// and by tag; sorting by tags that all share one place changes nothing.
    @Test func radixSortsAreStable() {
        var generator = SystemRandomNumberGenerator()
        let entries = (0..<5_000).map { document in
            KeyedDocument(
                key: UInt64.random(in: 0..<40, using: &generator) << 30, document: UInt32(document),
                tag: UInt32.random(in: 0..<3, using: &generator))
        }
        var byKey = entries
        RadixOrder.sortByKey(&byKey)
        let expectedByKey = entries.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
        #expect(byKey.map(\.document) == expectedByKey.map(\.element.document))
        var oneCurrency = byKey
        RadixOrder.sortByTag(&oneCurrency, place: [0, 0, 0])
        #expect(oneCurrency.map(\.document) == byKey.map(\.document))
        let place = [2, 0, 1]
        var byTag = byKey
        RadixOrder.sortByTag(&byTag, place: place)
        let expectedByTag = byKey.enumerated().sorted {
            (place[Int($0.element.tag)], $0.offset) < (place[Int($1.element.tag)], $1.offset)
        }
        #expect(byTag.map(\.document) == expectedByTag.map(\.element.document))
    }
}
