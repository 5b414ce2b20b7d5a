import Foundation

/// A catalog's change log: one page of it, or every change as it comes.
extension CatalogClient {
    /// One page of a catalog's change log: the changes after `since`, oldest first, and the
    /// catalog's change number now. Never from the client's cache.
    ///
    /// ```swift
    /// var page = try await client.changeLog(of: "cookbook", since: 120)
    /// while let next = page.next { page = try await client.changeLog(of: "cookbook", since: next) }
    /// ```
    ///
    /// - Parameters:
    ///   - catalog: the catalog's id.
    ///   - since: a change number (0: from the start of the log).
    ///   - limit: changes per page, 1 to `CatalogLimits.maxPageSize` (500).
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown catalog, `.badRequest`.
    public func changeLog(of catalog: String, since: Int, limit: Int = CatalogLimits.maxPageSize)
        async throws(CatalogClientError) -> CatalogChangePage
    {
        let url = url(
            ["api", "v1", "catalogs", try Self.segment(catalog), "changes"],
            query: [("since", String(since)), ("limit", String(limit))])
        return try decode(CatalogChangePage.self, try await fetch(url, in: nil))
    }

    /// Every change of a catalog after `since`, as it happens: the log's pages first, then new
    /// changes as the server makes them, until the iterating task is cancelled.
    ///
    /// ```swift
    /// let stored = try await client.record("gulyas", in: "cookbook")
    /// for try await change in client.changes(of: "cookbook", since: stored.change) {
    ///     if change.kind == .reload { break }  // read the catalog again
    ///     print(change.number, change.id ?? "")
    /// }
    /// ```
    ///
    /// Each change arrives once and in order, across dropped connections and a server that
    /// restarts (see ``CatalogChanges``). The feed needs no token.
    ///
    /// - Parameters:
    ///   - catalog: the catalog's id.
    ///   - since: the change number to start after: a ``VersionedRecord/change``, a
    ///     ``BatchOutcome/change``, the last ``CatalogChange/number`` handled, or 0 for the
    ///     whole log.
    ///   - options: how the feed is followed (by default a live Server-Sent Events stream once
    ///     caught up; see ``ChangeFeedTransport``).
    public func changes(of catalog: String, since: Int, options: ChangeFeedOptions = ChangeFeedOptions())
        -> CatalogChanges
    {
        CatalogChanges(client: self, catalog: catalog, since: since, options: options)
    }
}
