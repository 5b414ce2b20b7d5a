import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// `catalog catalogs`: every catalog with its record count.
struct CatalogsCommand: Command {
    static let name = "catalogs"
    static let summary = "List the catalogs in the database."
    static let json = CommonOptions.json.help(#"print {"catalogs":[{"id","title","locale","count","visibility"}]}"#)
    static let options: [any OptionDeclaration] = [json]
    static let usage = [Usage(.option(json), .option(CommonOptions.db))]
    static let discussion = """
        Lists every catalog: id, locale, record count and title, then [signed-in] or [members] for a
        catalog not everyone may see (set-catalog --visibility).
        """

    func run(_ context: CommandContext) throws {
        let database = try context.openExisting()
        defer { database.close() }
        let catalogs = try database.read { try $0.catalogs() }
        if context.json {
            struct Body: Encodable { var catalogs: [CatalogSummary] }
            context.output.line(try JSON.string(Body(catalogs: catalogs)))
            return
        }
        let width = max(2, catalogs.map(\.id.count).max() ?? 0)
        for catalog in catalogs {
            context.output.line(
                TerminalText.field(catalog.id).padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + catalog.locale.padding(toLength: 6, withPad: " ", startingAt: 0)
                    + String(catalog.count).leftPadded(to: 8) + "  " + TerminalText.field(catalog.title)
                    + (catalog.visibility == .public ? "" : "  [\(catalog.visibility)]"))
        }
    }
}

/// `catalog list`: every record in index order, with its section.
struct ListCommand: Command {
    static let name = "list"
    static let summary = "List a catalog's records in index order, with their sections."
    static let section = Option<String?>("section", value: "LABEL", help: "only this section")
    static let json = CommonOptions.json.help(#"print {"items":[record…]} (the API's record shape)"#)
    static let options: [any OptionDeclaration] = [CommonOptions.catalog, section, json]
    static let usage = [
        Usage(.option(CommonOptions.catalog), .option(section), .option(json), .option(CommonOptions.db))
    ]
    static let discussion = """
        Prints the records in index order (sections in the locale's order, records sorted by the
        locale's collation inside each section): section, id and title, tab-separated.
        """

    func run(_ context: CommandContext) throws {
        let database = try context.openExisting()
        defer { database.close() }
        let id = try context.arguments[CommonOptions.catalog]
        let section = try context.arguments[Self.section]
        let output = context.output
        try database.read { reader in
            let catalog = try reader.requireCatalog(id)
            if context.json { output.write("{\"items\":[") }
            var first = true
            var cursor: String?
            repeat {
                let page = try reader.items(
                    of: catalog, section: section, after: cursor, limit: CatalogLimits.maxPageSize)
                for record in try page.records() {
                    if context.json {
                        if !first { output.write(",") }
                        output.write(bytes: record.jsonBytes)
                    } else {
                        output.line(
                            "\(TerminalText.field(record.section ?? "#"))\t\(TerminalText.field(record.id))\t"
                                + TerminalText.field(record.title))
                    }
                    first = false
                }
                if output.isClosed { throw OutputClosed() }
                cursor = page.next
            } while cursor != nil
            if context.json { output.line("]}") }
        }
    }
}

/// `catalog sections`: the non-empty sections with counts.
struct SectionsCommand: Command {
    static let name = "sections"
    static let summary = "Show a catalog's non-empty sections with their record counts."
    static let json = CommonOptions.json.help(#"print {"sections":[{"label","count"}]}"#)
    static let options: [any OptionDeclaration] = [CommonOptions.catalog, json]
    static let usage = [Usage(.option(CommonOptions.catalog), .option(json), .option(CommonOptions.db))]
    static let discussion = """
        Prints the non-empty index sections in order, with the number of records in each. Labels
        follow the catalog's locale (ICU's alphabetic index): German files Ä under A, Hungarian has
        CS, GY, NY, SZ, ZS…; digits and other scripts go to "#".
        """

    func run(_ context: CommandContext) throws {
        let database = try context.openExisting()
        defer { database.close() }
        try database.read { reader in
            let sections = try reader.sections(
                of: try reader.requireCatalog(try context.arguments[CommonOptions.catalog]))
            if context.json {
                struct Body: Encodable { var sections: [SectionCount] }
                context.output.line(try JSON.string(Body(sections: sections)))
                return
            }
            for section in sections {
                context.output.line("\(TerminalText.field(section.label))\t\(section.count)")
            }
        }
    }
}

/// `catalog show`: one record, every field.
struct ShowCommand: Command {
    static let name = "show"
    static let summary = "Show one record with every field."
    static let json = CommonOptions.json.help("print the record as JSON (the API's record shape)")
    static let options: [any OptionDeclaration] = [CommonOptions.catalog, json]
    static let usage = [Usage(.option(CommonOptions.catalog), "ITEM", .option(json), .option(CommonOptions.db))]
    static let discussion = "Prints every field of the record whose id is ITEM."

    func run(_ context: CommandContext) throws {
        let id = try context.arguments[CommonOptions.catalog]
        guard let itemID = context.arguments.positionals.first, context.arguments.positionals.count == 1 else {
            throw CLIError.usage("name exactly one item id")
        }
        let database = try context.openExisting()
        defer { database.close() }
        try database.read { reader in
            guard let record = try reader.item(of: try reader.requireCatalog(id), id: itemID)?.record() else {
                throw CLIError.failure("catalog \"\(id)\" has no item \"\(itemID)\"")
            }
            if context.json {
                context.output.line(JSON.pretty(record.jsonBytes))
                return
            }
            for (field, value) in record.displayFields {
                // Field names and values come from the source: controls made visible, lines kept.
                let name = TerminalText.field(field)
                let lines = TerminalText.text(value).split(separator: "\n", omittingEmptySubsequences: false)
                context.output.line("\(name): \(lines.first ?? "")")
                for line in lines.dropFirst() {
                    context.output.line(String(repeating: " ", count: name.count + 2) + line)
                }
            }
        }
    }
}

/// `catalog search`: ranked results with match ranges and scope counts.
struct SearchCommand: Command {
    static let name = "search"
    static let summary = "Search a catalog as you would type: ranked, with scope counts."
    static let scope = Option<String?>(
        "scope", value: "LABEL", help: "only records in this scope (see the scope counts)")
    static let category = Option<[String]>(
        "category", value: "LABEL", help: "only records carrying this category (repeatable: all of them)")
    static let country = Option<[String]>(
        "country", value: "CODE", help: "only records from this country (repeatable: any of them)")
    static let price = Option<NumericRange?>(
        "price", value: "MIN..MAX", help: "only records priced in this range (either side may be empty)"
    ) { (text: String) throws(CLIError) -> NumericRange in
        guard let range = NumericRange(parsing: text) else {
            throw CLIError.usage("--price takes MIN..MAX (either side may be empty), not \"\(text)\"")
        }
        return range
    }
    static let filter = Option<FilterExpression?>(
        "filter", value: "EXPRESSION",
        help: #"only records passing it: 'Origin = "Japan" AND Horsepower 100..150' (see the discussion)"#
    ) { (text: String) throws(CLIError) -> FilterExpression in
        do throws(RecordFilterError) {
            return try FilterExpression(parsing: text)
        } catch {
            throw CLIError.usage("--filter at character \(error.column): \(error.message)")
        }
    }
    static let sort = Option<SearchSort?>(
        "sort", value: "KEYS",
        help: "relevance (default), or up to 4 comma-separated keys: title, price or a field's name, -KEY descending"
    ) { (text: String) throws(CLIError) -> SearchSort in
        do throws(SearchRequestError) {
            return try SearchSort(parameter: text)
        } catch {
            throw CLIError.usage("--sort: \(error.message)")
        }
    }
    static let facets = Option<[SearchFacet]?>(
        "facets", value: "LIST",
        help: "counts per value of categories, country or any filterable field (comma-separated names)"
    ) { (text: String) throws(CLIError) -> [SearchFacet] in
        try text.split(separator: ",").map { (name: Substring) throws(CLIError) -> SearchFacet in
            guard let facet = SearchFacet(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw CLIError.usage("--facets takes categories, country or field names, not \"\(name.prefix(40))\"")
            }
            return facet
        }
    }
    static let limit = Option<Int>(
        "limit", value: "N", in: 1...CatalogLimits.maxSearchLimit, default: 20,
        help: "at most N results, from 1 to \(CatalogLimits.maxSearchLimit)")
    static let after = Option<String?>(
        "after", value: "CURSOR", help: "the next page: the cursor a previous search printed")
    static let json = CommonOptions.json.help(
        #"print {"items","total","totalCapped","scope","scopes","next"}; an item is a record with its "matches""#)
    static let options: [any OptionDeclaration] = [
        CommonOptions.catalog, scope, category, country, price, filter, sort, facets, limit, after, json,
    ]
    static let usage = [
        Usage(
            "QUERY", .option(CommonOptions.catalog), .option(scope), .option(category), .option(country),
            .option(price), .option(filter),
            .option(sort), .option(facets), .option(limit), .option(after), .option(json), .option(CommonOptions.db))
    ]
    static let discussion = """
        Search as you type: case, accents and letter variants are ignored; every word must match,
        the last one as a prefix; words match inside title words from the first letter, and other
        fields from the start of their words; from five letters on a typo is forgiven (two from
        nine). Results are ranked: the exact title (or a field's whole value), titles that start
        with the query, whole title words, title word starts, whole words anywhere, inside title
        words, other fields, synonyms, one typo, two typos, typos in other fields; shorter titles
        first.
        Counts stop at 1000 ("1000+"). QUERY is plain text, never query syntax.

        --filter takes conditions on any of the records' fields: FIELD = v, !=, <, <=, >, >=
        (numbers and dates), FIELD a..b (a range, either end open), FIELD IN [a, b], FIELD
        EXISTS, FIELD IS EMPTY, joined with AND, OR, NOT and parentheses; quote names and values
        with spaces ("Model Year" >= 1970, Origin = "South Korea"). category, country and price
        are the records' own.
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let id = try arguments[CommonOptions.catalog]
        var request = SearchRequest(query: arguments.positionals.joined(separator: " "))
        request.limit = try arguments[Self.limit]
        request.scope = try arguments[Self.scope]
        request.after = try arguments[Self.after]
        request.categories = try arguments[Self.category]
        request.countries = try arguments[Self.country]
        if let range = try arguments[Self.price] { request.price = range }
        request.filter = try arguments[Self.filter]
        if let order = try arguments[Self.sort] { request.sort = order }
        if let facets = try arguments[Self.facets] { request.facets = facets }
        // The same checks as the server's and offline catalogs' (``SearchRequest/Checked``).
        let checked: SearchRequest.Checked
        do {
            checked = try request.checked()
        } catch {
            throw CLIError.usage(error.message)
        }
        let database = try context.openExisting()
        defer { database.close() }
        try database.read { reader in
            let result = try reader.search(checked, in: try reader.requireCatalog(id))
            if context.json {
                // The API's answer, byte for byte: stored records keep their typed fields.
                context.output.write(bytes: result.jsonBytes)
                context.output.line()
                return
            }
            let response = try result.response()
            let output = context.output
            let highlight = output.isTerminal
            // Every text from the catalog is made safe first (``TerminalText/field(_:)`` keeps UTF-16
            // offsets, so the match ranges still fit), then highlighted with our own sequences.
            output.line(
                response.scopes.map { "\(TerminalText.field($0.label)) (\($0.count)\($0.capped ? "+" : ""))" }
                    .joined(separator: "  "))
            for (name, counts) in (response.facets ?? [:]).sorted(by: { $0.key < $1.key }) {
                output.line(
                    TerminalText.field(name) + ": "
                        + counts.map { "\(TerminalText.field($0.value)) (\($0.count)\($0.capped ? "+" : ""))" }
                        .joined(separator: "  "))
            }
            output.line("\(response.total)\(response.totalCapped ? "+" : "") found")
            if let suggestion = response.suggestion { output.line("did you mean: \(TerminalText.field(suggestion))") }
            for hit in response.items {
                let ranges = hit.matches.filter { $0.field == "title" }
                let title = TerminalText.field(hit.record.title)
                var line = "\(TerminalText.field(hit.record.id))\t" + (highlight ? title.highlighted(ranges) : title)
                if let subtitle = hit.record.subtitle { line += "\t" + TerminalText.field(subtitle) }
                if let snippet = hit.snippet {
                    let text = TerminalText.field(snippet.text)
                    line +=
                        "\t\(TerminalText.field(snippet.field)): "
                        + (highlight ? text.highlighted(snippet.matches) : text)
                }
                output.line(line)
            }
            if let next = response.next { output.line("more: --after \(next)") }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Bold terminal highlighting of UTF-16 ranges.
    func highlighted(_ ranges: [MatchRange]) -> String {
        let units = Array(utf16)
        var result: [UInt16] = []
        var position = 0
        for range in ranges.sorted(by: { $0.start < $1.start })
        where range.start >= position && range.start + range.length <= units.count {
            result += units[position..<range.start]
            result +=
                Array("\u{1B}[1m".utf16) + units[range.start..<(range.start + range.length)] + Array("\u{1B}[0m".utf16)
            position = range.start + range.length
        }
        result += units[position...]
        return String(decoding: result, as: UTF16.self)
    }
}

extension Record {
    /// Every field as label and text, for `catalog show`.
    var displayFields: [(String, String)] {
        var fields: [(String, String)] = [("id", id), ("title", title)]
        if let subtitle { fields.append(("subtitle", subtitle)) }
        if let description { fields.append(("description", description)) }
        if !categories.isEmpty { fields.append(("categories", categories.joined(separator: ", "))) }
        if let price { fields.append(("price", "\(price)" + (currency.map { " \($0)" } ?? ""))) }
        if let quantity { fields.append(("quantity", String(quantity))) }
        if let country { fields.append(("country", country)) }
        if let image { fields.append(("image", image)) }
        if let featured { fields.append(("featured", String(featured))) }
        if let section { fields.append(("section", section)) }
        for name in self.fields.keys.sorted() {
            fields.append((name, self.fields[name]!.values.joined(separator: "; ")))
        }
        return fields
    }
}
