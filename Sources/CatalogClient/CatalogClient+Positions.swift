import Foundation

/// What a list needs to be laid out whole before any of its records arrive
/// (``CatalogClient/outline(of:category:)``): how many records it holds, the locale's section
/// labels (an index rail's letters) and its non-empty sections with the position of each one's
/// first record. With it, a scroll bar or an index rail reaches any row of a million by asking
/// for the records at that position (``CatalogClient/items(of:position:category:limit:)``).
public struct CatalogOutline: Decodable, Sendable, Hashable {
    /// A non-empty section of the list.
    public struct Section: Decodable, Sendable, Hashable, Identifiable {
        /// The section's label (`A`, `CS`, `#`).
        public var label: String
        /// The position of its first record in the list.
        public var start: Int
        /// How many records it holds.
        public var count: Int
        /// The label (a list has each section once).
        public var id: String { label }
    }

    /// How many records the list holds.
    public var count: Int
    /// Every section label of the catalog's locale, in order (empty ones included).
    public var labels: [String]
    /// The non-empty sections, in order.
    public var sections: [Section]

    /// The position a jump to `label` lands on: the first record of that section or of the next
    /// non-empty one (the end of the list past the last), nil for a label the locale does not have.
    public func position(ofLabel label: String) -> Int? {
        guard let index = labels.firstIndex(of: label) else { return nil }
        let later = Set(labels[index...])
        return sections.first { later.contains($0.label) }?.start ?? count
    }
}

/// Records at a position of a list in index order (``CatalogClient/items(of:position:category:limit:)``).
public struct PositionedItems: Decodable, Sendable, Hashable {
    /// The records, in index order, from ``position`` on.
    public var items: [Record]
    /// The position of the first of them.
    public var position: Int
    /// How many records the list holds now.
    public var count: Int
    /// Each record's cursor (its place, which ``CatalogClient/items(of:section:after:before:limit:)`` pages from).
    public var cursors: [String]
    /// The cursor of the page after these, nil at the end.
    public var next: String?
    /// The cursor of the page before these, nil at the start.
    public var previous: String?
}

extension CatalogClient {
    /// The outline of a catalog's list in index order, or of one category's list.
    ///
    /// ```swift
    /// let outline = try await client.outline(of: "cookbook")
    /// let start = outline.position(ofLabel: "GY") ?? 0
    /// let rows = try await client.items(of: "cookbook", position: start)
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown catalog or category.
    public func outline(of catalog: String, category: String? = nil) async throws(CatalogClientError)
        -> CatalogOutline
    {
        var path = ["api", "v1", "catalogs", try Self.segment(catalog)]
        if let category { path += ["categories", try Self.segment(category)] }
        return try await get(path + ["outline"], as: CatalogOutline.self)
    }

    /// The records at `position` (counted from 0) of a catalog's list in index order, or of one
    /// category's list: what a windowed list asks for as it scrolls.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound`, `.badRequest` for a position or limit out of range.
    public func items(
        of catalog: String, position: Int, category: String? = nil, limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> PositionedItems {
        var path = ["api", "v1", "catalogs", try Self.segment(catalog)]
        if let category { path += ["categories", try Self.segment(category)] }
        return try await get(
            path + ["items"], query: [("position", String(position)), ("limit", String(limit))],
            as: PositionedItems.self)
    }
}
