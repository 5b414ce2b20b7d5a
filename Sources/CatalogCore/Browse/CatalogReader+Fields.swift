import CatalogModel
import CatalogStorage

/// The records' own fields as filters and facets see them, the same on every engine and offline.
extension CatalogReader {
    /// The catalog's own fields with their kinds, bounds and whether they are filterable and
    /// facets (``CatalogField``: by the settings' lists, or by default from the data), by name;
    /// worked out from the index's terms once per segment.
    public func fields(of catalog: StoredCatalog) throws -> [CatalogField] {
        var statistics: [String: FieldStatistics] = [:]
        for segment in try loadedSegments(of: catalog) {
            let index = segment.index
            let fields = try indexCache.listValue(for: segment.key + "/fields") { index.lexicon.fieldStatistics() }
            statistics.merge(fields) { $0.merged(with: $1) }
        }
        return CatalogField.list(statistics, settings: catalog.definition.searchSettings)
    }

    /// The values of a facet that start with `request.query`, counted among the records that match
    /// `search` under the request's scope and filters
    /// (``CatalogSearcher/facetValues(of:_:matching:limit:)``).
    public func facetValues(
        of facet: SearchFacet, _ request: SearchRequest.Checked, matching search: String = "", limit: Int,
        in catalog: StoredCatalog
    ) throws -> [FacetCount] {
        let searcher = CatalogSearcher(
            segments: try loadedSegments(of: catalog),
            catalog: SearchCatalog(definition: catalog.definition, categories: catalog.categories))
        return try searcher.facetValues(of: facet, request, matching: search, limit: limit)
    }
}
