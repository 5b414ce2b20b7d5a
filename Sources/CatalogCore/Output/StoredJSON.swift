import CatalogModel
import CatalogStorage

/// The API's answers written from stored records: their JSON is stored ready to serve, so a
/// page or a search result is a concatenation, not an encoding.
extension BrowsePage: JSONWritable {
    /// `{"items":[…],"next":…,"previous":…}`.
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.member("items") { output in output.array(items) { output, item in output.append(json: item.json) } }
            object.string("next", next)
            object.string("previous", previous)
        }
    }
}

extension StoredHit: JSONWritable {
    /// The record's stored JSON.
    public func write(to output: inout JSONOutput) {
        output.append(json: json)
    }
}

extension SearchResult: JSONWritable {
    /// `{"facets"?,"items":[record + "matches" + "snippet" + "typo"],"next","scope","scopes","suggestion"?,"total",
    /// "totalCapped"}`.
    public func write(to output: inout JSONOutput) {
        SearchResponse.writeEnvelope(
            facets: facets.isEmpty ? nil : Dictionary(uniqueKeysWithValues: facets.map { ($0.key.rawValue, $0.value) }),
            next: next, scope: scope, scopes: scopes, suggestion: suggestion, total: total, totalCapped: totalCapped,
            to: &output
        ) { output in
            output.array(hits) { output, hit in
                // The stored record without its closing brace, then the search's own keys: a
                // splice into an object already written, so its commas are placed by hand.
                output.append(json: hit.stored.json.dropLast())
                output.raw(",")
                output.key("matches")
                output.array(hit.matches)
                output.raw(",")
                output.key("snippet")
                if let snippet = hit.snippet { snippet.write(to: &output) } else { output.raw("null") }
                output.raw(",")
                output.key("typo")
                output.raw(hit.isExact ? "false" : "true")
                output.raw("}")
            }
        }
    }
}

extension EditOutcome: JSONWritable {
    /// `{"change","results":[{"etag","id","result"}]}`: what a batch did (the API's answer, and
    /// `catalog put --json`).
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("change", change)
            object.member("results") { output in
                output.array(results) { output, result in
                    output.object { object in
                        object.string("etag", result.etag)
                        object.string("id", result.id)
                        object.string("result", result.result.rawValue)
                    }
                }
            }
        }
    }
}
