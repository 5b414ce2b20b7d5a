// The API's hot shapes as JSON, keys in sorted order (what `JSONEncoder` with `.sortedKeys`
// writes for the same values).

extension Record: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        writeMembers(to: &output)
        output.raw("}")
    }

    /// The members without braces, so ``SearchHit`` can add `matches` in its sorted place.
    func writeMembers(to output: inout JSONOutput, matches: [MatchRange]? = nil) {
        output.key("categories")
        output.strings(categories)
        output.raw(",")
        output.key("country")
        output.string(country)
        output.raw(",")
        output.key("currency")
        output.string(currency)
        output.raw(",")
        output.key("description")
        output.string(description)
        output.raw(",")
        output.key("featured")
        output.integer(featured)
        output.raw(",")
        output.key("fields")
        output.fields(fields)
        output.raw(",")
        output.key("id")
        output.string(id)
        output.raw(",")
        output.key("image")
        output.string(image)
        output.raw(",")
        if let matches {
            output.key("matches")
            output.array(matches)
            output.raw(",")
        }
        output.key("price")
        output.decimal(price)
        output.raw(",")
        output.key("quantity")
        output.integer(quantity)
        output.raw(",")
        output.key("section")
        output.string(section)
        output.raw(",")
        output.key("subtitle")
        output.string(subtitle)
        output.raw(",")
        output.key("title")
        output.string(title)
    }
}

extension MatchRange: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("field")
        output.string(field)
        output.raw(",")
        output.key("length")
        output.integer(length)
        output.raw(",")
        output.key("start")
        output.integer(start)
        output.raw("}")
    }
}

extension SearchHit: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        record.writeMembers(to: &output, matches: matches)
        output.raw(",")
        output.key("snippet")
        if let snippet { snippet.write(to: &output) } else { output.raw("null") }
        output.raw("}")
    }
}

extension ScopeCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("capped")
        output.boolean(capped)
        output.raw(",")
        output.key("count")
        output.integer(count)
        output.raw(",")
        output.key("label")
        output.string(label)
        output.raw("}")
    }
}

extension SearchResponse: JSONWritable {
    public func write(to output: inout JSONOutput) {
        Self.writeEnvelope(
            facets: facets, next: next, scope: scope, scopes: scopes, total: total, totalCapped: totalCapped,
            to: &output
        ) { output in output.array(items) }
    }

    /// A search answer's object, `{"facets"?,"items","next","scope","scopes","total","totalCapped"}`,
    /// (`facets` left out when nil), with `items` writing the array: one shape for the server's stored records and the model's.
    public static func writeEnvelope(
        facets: [String: [FacetCount]]?, next: String?, scope: String?, scopes: [ScopeCount], total: Int,
        totalCapped: Bool, to output: inout JSONOutput, items: (inout JSONOutput) -> Void
    ) {
        output.raw("{")
        if let facets {
            output.key("facets")
            output.raw("{")
            for (index, name) in facets.keys.sorted().enumerated() {
                if index > 0 { output.raw(",") }
                output.string(name)
                output.raw(":")
                output.array(facets[name]!)
            }
            output.raw("},")
        }
        output.key("items")
        items(&output)
        output.raw(",")
        output.key("next")
        output.string(next)
        output.raw(",")
        output.key("scope")
        output.string(scope)
        output.raw(",")
        output.key("scopes")
        output.array(scopes)
        output.raw(",")
        output.key("total")
        output.integer(total)
        output.raw(",")
        output.key("totalCapped")
        output.boolean(totalCapped)
        output.raw("}")
    }
}

extension ItemsPage: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("items")
        output.array(items)
        output.raw(",")
        output.key("next")
        output.string(next)
        output.raw(",")
        output.key("previous")
        output.string(previous)
        output.raw("}")
    }
}

extension CatalogSummary: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("count")
        output.integer(count)
        output.raw(",")
        output.key("id")
        output.string(id)
        output.raw(",")
        output.key("locale")
        output.string(locale)
        output.raw(",")
        output.key("title")
        output.string(title)
        output.raw("}")
    }
}

extension SectionCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("count")
        output.integer(count)
        output.raw(",")
        output.key("label")
        output.string(label)
        output.raw("}")
    }
}

extension CategoryCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("count")
        output.integer(count)
        output.raw(",")
        output.key("id")
        output.integer(id)
        output.raw(",")
        output.key("image")
        output.string(image)
        output.raw(",")
        output.key("name")
        output.string(name)
        output.raw("}")
    }
}

extension MatchSnippet: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("field")
        output.string(field)
        output.raw(",")
        output.key("matches")
        output.array(matches)
        output.raw(",")
        output.key("text")
        output.string(text)
        output.raw("}")
    }
}

extension FacetCount: JSONWritable {
    public func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("capped")
        output.boolean(capped)
        output.raw(",")
        output.key("count")
        output.integer(count)
        output.raw(",")
        output.key("value")
        output.string(value)
        output.raw("}")
    }
}
