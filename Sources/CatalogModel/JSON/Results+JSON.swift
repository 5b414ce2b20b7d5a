// The API's hot shapes as JSON, keys in sorted order (what `JSONEncoder` with `.sortedKeys`
// writes for the same values).

extension Record: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in writeMembers(to: &object) }
    }

    /// The members, so ``SearchHit`` can add `matches` in its sorted place and more after them.
    func writeMembers(to object: inout JSONObjectWriter, matches: [MatchRange]? = nil) {
        object.strings("categories", categories)
        object.string("country", country)
        object.string("currency", currency)
        object.string("description", description)
        object.integer("featured", featured)
        object.member("fields") { $0.fields(fields) }
        object.string("id", id)
        object.string("image", image)
        if let matches { object.array("matches", matches) }
        object.member("price") { $0.decimal(price) }
        object.integer("quantity", quantity)
        object.string("section", section)
        object.string("subtitle", subtitle)
        object.string("title", title)
    }
}

extension MatchRange: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.string("field", field)
            object.integer("length", length)
            object.integer("start", start)
        }
    }
}

extension SearchHit: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            record.writeMembers(to: &object, matches: matches)
            object.value("snippet", snippet)
            object.boolean("typo", typo)
        }
    }
}

extension ScopeCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.boolean("capped", capped)
            object.integer("count", count)
            object.string("label", label)
        }
    }
}

extension SearchResponse: JSONWritable {
    public func write(to output: inout JSONOutput) {
        Self.writeEnvelope(
            facets: facets, next: next, scope: scope, scopes: scopes, suggestion: suggestion, total: total,
            totalCapped: totalCapped, to: &output
        ) { output in output.array(items) }
    }

    /// A search answer's object,
    /// `{"facets"?,"items","next","scope","scopes","suggestion"?,"total","totalCapped"}` (`facets`
    /// and `suggestion` left out when nil), with `items` writing the array: one shape for the
    /// server's stored records and the model's.
    public static func writeEnvelope(
        facets: [String: [FacetCount]]?, next: String?, scope: String?, scopes: [ScopeCount],
        suggestion: String? = nil, total: Int, totalCapped: Bool, to output: inout JSONOutput,
        items: (inout JSONOutput) -> Void
    ) {
        output.object { object in
            if let facets {
                object.member("facets") { output in
                    output.object { facetObject in
                        for name in facets.keys.sorted() {
                            facetObject.member(named: name) { $0.array(facets[name]!) }
                        }
                    }
                }
            }
            object.member("items", items)
            object.string("next", next)
            object.string("scope", scope)
            object.array("scopes", scopes)
            if let suggestion { object.string("suggestion", suggestion) }
            object.integer("total", total)
            object.boolean("totalCapped", totalCapped)
        }
    }
}

extension ItemsPage: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.array("items", items)
            object.string("next", next)
            object.string("previous", previous)
        }
    }
}

extension CatalogSummary: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("count", count)
            object.string("description", description)
            object.string("id", id)
            object.string("locale", locale)
            object.string("title", title)
            object.string("visibility", visibility.rawValue)
        }
    }
}

extension SectionCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("count", count)
            object.string("label", label)
        }
    }
}

extension CategoryCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("count", count)
            object.integer("id", id)
            object.string("image", image)
            object.string("name", name)
        }
    }
}

extension MatchSnippet: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.string("field", field)
            object.array("matches", matches)
            object.string("text", text)
        }
    }
}

extension FacetCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.boolean("capped", capped)
            object.integer("count", count)
            object.string("value", value)
        }
    }
}
