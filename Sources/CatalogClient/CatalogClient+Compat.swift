import Foundation

extension CatalogClient {
    // MARK: - The original cookbook endpoints

    /// `/gethots`: the featured recipes of the server's cookbook catalog, as the original app
    /// received them.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` when the server has no cookbook catalog.
    public func hots() async throws(CatalogClientError) -> [CompatRecipe] {
        try await get(["gethots"], as: [CompatRecipe].self)
    }

    /// `/getcategories`: the cookbook's categories.
    ///
    /// - Throws: ``CatalogClientError``.
    public func compatCategories() async throws(CatalogClientError) -> [CompatCategory] {
        try await get(["getcategories"], as: [CompatCategory].self)
    }

    /// `/getrecipesbycategory?catid=ID`: one category's recipes.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown category.
    public func recipes(inCategory catid: Int) async throws(CatalogClientError) -> [CompatRecipe] {
        try await get(["getrecipesbycategory"], query: [("catid", String(catid))], as: [CompatRecipe].self)
    }

    /// `/getrecipe?recid=ID`: one recipe.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown recipe.
    public func recipe(_ recid: String) async throws(CatalogClientError) -> CompatRecipe {
        guard !recid.isEmpty else { throw CatalogClientError(.invalidArgument, "a recipe id must not be empty") }
        return try await get(["getrecipe"], query: [("recid", recid)], as: CompatRecipe.self)
    }

    // MARK: - Feeds

    /// A catalog's XML feed (`/catalogs/{id}/feed.xml`, the sequencers' original `<sequenzer>`
    /// document) read into records, mapped by the definition the feed carries.
    ///
    /// - Parameters:
    ///   - catalog: the catalog's id.
    ///   - definition: how to map the feed's fields when it carries no definition (a feed from
    ///     elsewhere); by default each field maps to the role of the same name.
    /// - Throws: ``CatalogClientError`` `.notFound`; `.decoding` naming the line and column for a
    ///   malformed feed or a record that does not map.
    public func feed(of catalog: String, definition: CatalogDefinition? = nil) async throws(CatalogClientError)
        -> [Record]
    {
        let answer = try await fetch(url(["catalogs", Self.segment(catalog), "feed.xml"]))
        return try Self.records(fromFeed: [UInt8](answer.body), catalog: catalog, definition: definition)
    }

    /// The records of a feed's bytes.
    static func records(fromFeed bytes: [UInt8], catalog: String, definition: CatalogDefinition?)
        throws(CatalogClientError) -> [Record]
    {
        let feed: FeedReader.Feed
        do {
            // Records are the root's children named like the first (the feed writes nothing else).
            feed = try FeedReader.read(bytes, recordElement: definition?.recordElement)
        } catch {
            throw CatalogClientError(.decoding, error.description)
        }
        let embedded = feed.definitionJSON.flatMap { json in
            try? CatalogJSONDecoder().decode(CatalogDefinition.self, from: Array(json.utf8))
        }
        var mapper = RecordMapper(
            definition: definition ?? embedded ?? CatalogDefinition(id: catalog, title: catalog, locale: "en"))
        var records: [Record] = []
        records.reserveCapacity(feed.records.count)
        for source in feed.records {
            do {
                records.append(try mapper.record(from: source))
            } catch {
                throw CatalogClientError(.decoding, error.description)
            }
        }
        return records
    }
}
