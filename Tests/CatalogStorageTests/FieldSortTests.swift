import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// `sort=` by any field, on every engine: numbers, dates and texts (by the catalog's collation),
/// ascending and descending, several keys, records without the field last, pages by cursor
/// across segments and changes, prices within one currency, and the mistakes that are 400s.
@Suite struct FieldSortTests {
    static let engines = TemporaryDatabase.Engine.available

    /// A Swedish cars catalog: Å and Ö come after Z in its collation (folded bytes would put
    /// "Åland" first and "Ödeshög" among the O's).
    static let cars = CatalogDefinition(id: "cars", title: "Bilar", locale: "sv")

    static func car(
        _ id: String, _ title: String, origin: String?, cylinders: Int, horsepower: Int?, year: Int?,
        released: String?
    ) -> Record {
        var fields: [String: FieldValue] = ["Cylinders": .number(String(cylinders))]
        if let origin { fields["Origin"] = .text(origin) }
        if let horsepower { fields["Horsepower"] = .number(String(horsepower)) }
        if let year { fields["Year"] = .number(String(year)) }
        if let released { fields["Released"] = .text(released) }
        return Record(id: id, title: title, fields: fields)
    }

    static let records: [Record] = [
        car(
            "c1", "Chevrolet Chevelle", origin: "USA", cylinders: 8, horsepower: 130, year: 1970, released: "1970-01-01"
        ),
        car("c2", "Buick Skylark", origin: "USA", cylinders: 8, horsepower: 165, year: 1970, released: "1970-03-15"),
        car("c3", "Datsun PL510", origin: "Japan", cylinders: 4, horsepower: 88, year: 1971, released: "1971-05-01"),
        car("c4", "Volvo 144", origin: "Åland", cylinders: 4, horsepower: 90, year: 1972, released: nil),
        car("c5", "Saab 99e", origin: "Ödeshög", cylinders: 4, horsepower: 95, year: 1970, released: "1970-06-01"),
        car("c6", "Toyota Corona", origin: "Japan", cylinders: 4, horsepower: nil, year: 1972, released: "1972-02-01"),
        car("c7", "Ford Pinto", origin: "Europe", cylinders: 6, horsepower: 100, year: nil, released: nil),
        car("c8", "Audi 100", origin: nil, cylinders: 4, horsepower: 90, year: 1971, released: "1971-01-10"),
    ]

    /// The orders of the cars, by `sort` parameter.
    static let expected: [(String, [String])] = [
        ("Horsepower", ["c3", "c8", "c4", "c5", "c7", "c1", "c2", "c6"]),
        ("-Horsepower", ["c2", "c1", "c7", "c5", "c8", "c4", "c3", "c6"]),
        ("Year,-Horsepower", ["c2", "c1", "c5", "c8", "c3", "c4", "c6", "c7"]),
        ("Origin", ["c7", "c3", "c6", "c2", "c1", "c4", "c5", "c8"]),
        ("-Origin", ["c5", "c4", "c2", "c1", "c3", "c6", "c7", "c8"]),
        ("Released", ["c1", "c2", "c5", "c8", "c3", "c6", "c7", "c4"]),
        ("-Cylinders,title", ["c2", "c1", "c7", "c8", "c3", "c5", "c6", "c4"]),
        ("-Cylinders,-title", ["c1", "c2", "c7", "c4", "c6", "c5", "c3", "c8"]),
    ]

    func search(
        _ fixture: StoreFixture, _ sort: String, query: String = "", after: String? = nil, limit: Int = 50,
        catalog: String = "cars"
    ) throws -> SearchResult {
        try fixture.read { reader in
            try reader.search(
                SearchRequest(query: query, sort: SearchSort(parameter: sort), after: after, limit: limit).checked(),
                in: reader.requireCatalog(catalog))
        }
    }

    /// Every page of a sorted search by its cursors, `limit` at a time.
    func pages(_ fixture: StoreFixture, _ sort: String, limit: Int, catalog: String = "cars") throws -> [String] {
        var ids: [String] = []
        var after: String?
        repeat {
            let result = try search(fixture, sort, after: after, limit: limit, catalog: catalog)
            ids += result.hits.map(\.stored.id)
            after = result.next
        } while after != nil && ids.count < 100
        return ids
    }

    @Test(arguments: engines)
    func fieldsSortAscendingDescendingAndBySeveralKeys(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.cars, Self.records)
        for (sort, ids) in Self.expected {
            #expect(try search(fixture, sort).hits.map(\.stored.id) == ids, "\(sort)")
            #expect(try pages(fixture, sort, limit: 3) == ids, "\(sort) by pages")
        }
    }

    /// A record changed through the editor lands in a new segment: pages of the merged segments
    /// come in one order, and a cursor made before a change continues right after its place.
    @Test(arguments: engines)
    func pagesFollowOneOrderAcrossSegmentsAndChanges(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.cars, Self.records)
        let collation = try ICUCollation(locale: "sv")
        _ = try CatalogEditor.apply(
            [
                RecordEdit(
                    .upsert(
                        Self.car(
                            "c9", "Opel Manta", origin: "Europe", cylinders: 4, horsepower: 92, year: 1971,
                            released: "1970-09-01"))),
                RecordEdit(
                    .upsert(
                        Self.car(
                            "c3", "Datsun PL510", origin: "Japan", cylinders: 4, horsepower: 170, year: 1971,
                            released: "1971-05-01"))),
            ], to: "cars", in: fixture.database, collation: collation)
        #expect(try fixture.read { try $0.searchSegments(of: $0.requireCatalog("cars")).count } > 1)
        let byPower = ["c8", "c4", "c9", "c5", "c7", "c1", "c2", "c3", "c6"]
        #expect(try search(fixture, "Horsepower").hits.map(\.stored.id) == byPower)
        #expect(try pages(fixture, "Horsepower", limit: 2) == byPower)
        #expect(
            try pages(fixture, "Origin,-Year", limit: 2) == ["c9", "c7", "c6", "c3", "c2", "c1", "c4", "c5", "c8"])

        // Four cars in, the fifth (c5, 95) changes: the next page goes on after c9's place.
        let first = try search(fixture, "Horsepower", limit: 3)
        #expect(first.hits.map(\.stored.id) == ["c8", "c4", "c9"])
        _ = try CatalogEditor.apply(
            [
                RecordEdit(
                    .upsert(
                        Self.car(
                            "c5", "Saab 99e", origin: "Ödeshög", cylinders: 4, horsepower: 80, year: 1970,
                            released: "1970-06-01"))),
                RecordEdit(
                    .upsert(
                        Self.car(
                            "c10", "Fiat 124", origin: "Europe", cylinders: 4, horsepower: 99, year: 1970,
                            released: nil))),
            ], to: "cars", in: fixture.database, collation: collation)
        let rest = try search(fixture, "Horsepower", after: try #require(first.next), limit: 50)
        #expect(rest.hits.map(\.stored.id) == ["c10", "c7", "c1", "c2", "c3", "c6"])
        // A cursor made before the segments are merged into one goes on from its place after.
        let beforeMerge = try search(fixture, "-Horsepower", limit: 4)
        #expect(beforeMerge.hits.map(\.stored.id) == ["c3", "c2", "c1", "c7"])
        _ = try SegmentMerger.mergeAll(catalog: "cars", in: fixture.database)
        let afterMerge = try search(fixture, "-Horsepower", after: try #require(beforeMerge.next), limit: 50)
        #expect(afterMerge.hits.map(\.stored.id) == ["c10", "c9", "c8", "c4", "c5", "c6"])
        #expect(
            try pages(fixture, "-Horsepower", limit: 4) == [
                "c3", "c2", "c1", "c7", "c10", "c9", "c8", "c4", "c5", "c6",
            ])
    }

    /// ¥15,800 never beats €20: prices sort within the most common currency first, then the
    /// other currencies by code, then prices without a currency; no price last.
    @Test(arguments: engines)
    func pricesSortWithinTheirCurrency(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let shop = CatalogDefinition(id: "shop", title: "Shop", locale: "en")
        try fixture.load(
            shop,
            [
                Record(id: "p1", title: "Lamp", price: 20, currency: "EUR"),
                Record(id: "p2", title: "Kettle", price: 15800, currency: "JPY"),
                Record(id: "p3", title: "Chair", price: 45, currency: "EUR"),
                Record(id: "p4", title: "Desk", price: 9, currency: "EUR"),
                Record(id: "p5", title: "Fan", price: 3000, currency: "JPY"),
                Record(id: "p6", title: "Mug", price: 12, currency: "USD"),
                Record(id: "p7", title: "Rug", price: 5),
                Record(id: "p8", title: "Vase"),
            ])
        let ascending = ["p4", "p1", "p3", "p5", "p2", "p6", "p7", "p8"]
        let descending = ["p3", "p1", "p4", "p2", "p5", "p6", "p7", "p8"]
        #expect(try search(fixture, "price", catalog: "shop").hits.map(\.stored.id) == ascending)
        #expect(try search(fixture, "-price", catalog: "shop").hits.map(\.stored.id) == descending)
        #expect(try pages(fixture, "price", limit: 3, catalog: "shop") == ascending)
        // Edits in a new segment keep the rule; JPY becomes the most common currency.
        _ = try CatalogEditor.apply(
            [
                RecordEdit(.upsert(Record(id: "p9", title: "Bowl", price: 500, currency: "JPY"))),
                RecordEdit(.upsert(Record(id: "p10", title: "Tray", price: 800, currency: "JPY"))),
                RecordEdit(.upsert(Record(id: "p11", title: "Cup", price: 10, currency: "EUR"))),
                RecordEdit(.upsert(Record(id: "p12", title: "Plate", price: 1200, currency: "JPY"))),
            ], to: "shop", in: fixture.database, collation: try ICUCollation(locale: "en"))
        let yenFirst = ["p9", "p10", "p12", "p5", "p2", "p4", "p11", "p1", "p3", "p6", "p7", "p8"]
        #expect(try search(fixture, "price", catalog: "shop").hits.map(\.stored.id) == yenFirst)
        #expect(try pages(fixture, "price", limit: 4, catalog: "shop") == yenFirst)
    }

    @Test(arguments: engines)
    func aRecordOfSeveralValuesSortsByItsSmallestOrLargest(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let books = CatalogDefinition(id: "books", title: "Bücher", locale: "de")
        try fixture.load(
            books,
            [
                Record(id: "b1", title: "Alpha", fields: ["Pages": .list([.number("300"), .number("20")])]),
                Record(id: "b2", title: "Beta", fields: ["Pages": .number("100")]),
                Record(id: "b3", title: "Gamma", fields: ["Pages": .number("200"), "Autor": .text("Öller")]),
                Record(id: "b4", title: "Delta", fields: ["Autor": .text("Oz")]),
                Record(id: "b5", title: "Epsilon", fields: ["Autor": .text("Zett"), "Pages": .null]),
            ])
        #expect(try search(fixture, "Pages", catalog: "books").hits.map(\.stored.id) == ["b1", "b2", "b3", "b4", "b5"])
        #expect(
            try search(fixture, "-Pages", catalog: "books").hits.map(\.stored.id) == ["b1", "b3", "b2", "b4", "b5"])
        // German files Ö with O: Öller, Oz, Zett (bytes would put Öller last).
        #expect(try search(fixture, "Autor", catalog: "books").hits.map(\.stored.id) == ["b3", "b4", "b5", "b1", "b2"])
    }

    @Test(arguments: engines)
    func unknownAndUnsortableFieldsAreRefused(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let names = CatalogDefinition(id: "names", title: "Names", locale: "en")
        try fixture.load(
            names,
            (0...CatalogSearcher.maxSortableTexts).map { number in
                Record(id: "n\(number)", title: "Name \(number)", fields: ["Nick": .text("nick \(number)")])
            } + Self.records.prefix(2))
        let unknown = #expect(throws: StorageError.self) { try search(fixture, "Year,Colour", catalog: "names") }
        #expect(unknown?.code == .invalidArgument)
        #expect(unknown?.message == "'sort': catalog \"names\" has no field \"Colour\"")
        let tooMany = #expect(throws: StorageError.self) { try search(fixture, "-Nick", catalog: "names") }
        #expect(tooMany?.code == .invalidArgument)
        #expect(tooMany?.message.contains("more than 200 distinct texts") == true)
        #expect(try search(fixture, "-Horsepower", catalog: "names").hits.prefix(2).map(\.stored.id) == ["c2", "c1"])

        // With sortable fields in the settings, only those (and title and price) sort.
        var listed = Self.cars
        listed.searchSettings.sortableFields = ["Year", "Nick"]
        try fixture.load(listed, Self.records)
        #expect(try search(fixture, "-Year,price,title").hits.map(\.stored.id).prefix(2) == ["c6", "c4"])
        let unlisted = #expect(throws: StorageError.self) { try search(fixture, "Year,Horsepower") }
        #expect(unlisted?.code == .invalidArgument)
        #expect(
            unlisted?.message
                == "'sort': catalog \"cars\" does not sort by \"Horsepower\"; its sortable fields are Year, Nick")
    }
}
