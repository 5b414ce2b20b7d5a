import CatalogModel
import CatalogStorage

/// The API's answers written from stored records: their JSON is stored ready to serve, so a
/// page or a search result is a concatenation, not an encoding.
extension BrowsePage: JSONWritable {
    /// `{"items":[…],"next":…,"previous":…}`.
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("items")
        output.raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { output.raw(",") }
            output.append(json: item.json)
        }
        output.raw("],")
        output.key("next")
        output.string(next)
        output.raw(",")
        output.key("previous")
        output.string(previous)
        output.raw("}")
    }
}

extension StoredHit: JSONWritable {
    /// The record's stored JSON.
    public func write(to output: inout JSONOutput) {
        output.append(json: json)
    }
}

extension SearchResult: JSONWritable {
    /// `{"facets"?,"items":[record + "matches" + "snippet"],"next","scope","scopes","total","totalCapped"}`.
    public func write(to output: inout JSONOutput) {
        SearchResponse.writeEnvelope(
            facets: facets.isEmpty ? nil : Dictionary(uniqueKeysWithValues: facets.map { ($0.key.rawValue, $0.value) }),
            next: next, scope: scope, scopes: scopes, total: total, totalCapped: totalCapped, to: &output
        ) { output in
            output.raw("[")
            for (index, hit) in hits.enumerated() {
                if index > 0 { output.raw(",") }
                // The stored record without its closing brace, then the search's own keys.
                output.append(json: hit.stored.json.dropLast())
                output.raw(",")
                output.key("matches")
                output.array(hit.matches)
                output.raw(",")
                output.key("snippet")
                if let snippet = hit.snippet { snippet.write(to: &output) } else { output.raw("null") }
                output.raw("}")
            }
            output.raw("]")
        }
    }
}
