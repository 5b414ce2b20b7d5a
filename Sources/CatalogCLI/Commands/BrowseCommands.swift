import CatalogModel
import CatalogSQLite
import CatalogStorage
import Foundation

/// `catalog catalogs`: every catalog with its record count.
struct CatalogsCommand: Command {
    static let name = "catalogs"
    static let summary = "List the catalogs in the database."
    static let options: Set<String> = []
    static let flags: Set<String> = ["json"]
    static let help = """
        USAGE: catalog catalogs [--json] [--db PATH]

        Lists every catalog: id, locale, record count and title.

        OPTIONS:
          --json      print {"catalogs":[{"id","title","locale","count"}]}

        """

    func run(_ context: CommandContext) throws {
        let store = try context.openExisting()
        defer { store.close() }
        let catalogs = try store.catalogs()
        if context.json {
            struct Body: Encodable { var catalogs: [CatalogSummary] }
            context.output.line(try JSON.string(Body(catalogs: catalogs)))
            return
        }
        let width = max(2, catalogs.map(\.id.count).max() ?? 0)
        for catalog in catalogs {
            context.output.line(
                catalog.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + catalog.locale.padding(toLength: 6, withPad: " ", startingAt: 0)
                    + String(catalog.count).leftPadded(to: 8) + "  " + catalog.title)
        }
    }
}

/// `catalog list`: every record in index order, with its section.
struct ListCommand: Command {
    static let name = "list"
    static let summary = "List a catalog's records in index order, with their sections."
    static let options: Set<String> = ["catalog", "section"]
    static let flags: Set<String> = ["json"]
    static let help = """
        USAGE: catalog list --catalog ID [--section LABEL] [--json] [--db PATH]

        Prints the records in index order (sections in the locale's order, records sorted by the
        locale's collation inside each section): section, id and title, tab-separated.

        OPTIONS:
          --catalog ID      the catalog
          --section LABEL   only this section
          --json            print {"items":[record…]} (the API's record shape)

        """

    func run(_ context: CommandContext) throws {
        let store = try context.openExisting()
        defer { store.close() }
        let id = try context.arguments.required("catalog")
        let section = context.arguments.value("section")
        let output = context.output
        if context.json { output.write("{\"items\":[") }
        var first = true
        var cursor: String?
        repeat {
            let page = try store.items(of: id, section: section, after: cursor, limit: SQLiteCatalogStore.maxPageSize)
            for record in page.items {
                if context.json {
                    if !first { output.write(",") }
                    output.write(bytes: record.jsonBytes)
                } else {
                    output.line("\(record.section ?? "#")\t\(record.id)\t\(record.title.singleLine)")
                }
                first = false
            }
            cursor = page.next
        } while cursor != nil
        if context.json { output.line("]}") }
    }
}

/// `catalog sections`: the non-empty sections with counts.
struct SectionsCommand: Command {
    static let name = "sections"
    static let summary = "Show a catalog's non-empty sections with their record counts."
    static let options: Set<String> = ["catalog"]
    static let flags: Set<String> = ["json"]
    static let help = """
        USAGE: catalog sections --catalog ID [--json] [--db PATH]

        Prints the non-empty index sections in order, with the number of records in each. Labels
        follow the catalog's locale (ICU's alphabetic index): German files Ä under A, Hungarian has
        CS, GY, NY, SZ, ZS…; digits and other scripts go to "#".

        OPTIONS:
          --catalog ID   the catalog
          --json         print {"sections":[{"label","count"}]}

        """

    func run(_ context: CommandContext) throws {
        let store = try context.openExisting()
        defer { store.close() }
        let sections = try store.sections(of: try context.arguments.required("catalog"))
        if context.json {
            struct Body: Encodable { var sections: [SectionCount] }
            context.output.line(try JSON.string(Body(sections: sections)))
            return
        }
        for section in sections {
            context.output.line("\(section.label)\t\(section.count)")
        }
    }
}

/// `catalog show`: one record, every field.
struct ShowCommand: Command {
    static let name = "show"
    static let summary = "Show one record with every field."
    static let options: Set<String> = ["catalog"]
    static let flags: Set<String> = ["json"]
    static let help = """
        USAGE: catalog show --catalog ID ITEM [--json] [--db PATH]

        Prints every field of the record whose id is ITEM.

        OPTIONS:
          --catalog ID   the catalog
          --json         print the record as JSON (the API's record shape)

        """

    func run(_ context: CommandContext) throws {
        let id = try context.arguments.required("catalog")
        guard let itemID = context.arguments.positionals.first, context.arguments.positionals.count == 1 else {
            throw CLIError.usage("name exactly one item id")
        }
        let store = try context.openExisting()
        defer { store.close() }
        guard let record = try store.item(of: id, itemID: itemID) else {
            throw CLIError.failure("catalog \"\(id)\" has no item \"\(itemID)\"")
        }
        if context.json {
            context.output.line(JSON.pretty(record.jsonBytes))
            return
        }
        for (name, value) in record.displayFields {
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            context.output.line("\(name): \(lines.first ?? "")")
            for line in lines.dropFirst() { context.output.line(String(repeating: " ", count: name.count + 2) + line) }
        }
    }
}

/// `catalog search`: ranked results with match ranges and scope counts.
struct SearchCommand: Command {
    static let name = "search"
    static let summary = "Search a catalog as you would type: ranked, with scope counts."
    static let options: Set<String> = ["catalog", "scope", "limit"]
    static let flags: Set<String> = ["json"]
    static let help = """
        USAGE: catalog search QUERY --catalog ID [--scope LABEL] [--limit N] [--json] [--db PATH]

        Case- and accent-insensitive; every word must match; the last word counts as a prefix;
        words of three letters or more also match inside title words. Results are ranked: whole
        title words, then title word starts, then inside the title, then other fields; ties in
        index order. Counts stop at 1000 ("1000+"). QUERY is plain text, never query syntax.

        OPTIONS:
          --catalog ID     the catalog
          --scope LABEL    only records in this scope (see the scope counts)
          --limit N        at most N results (1–200, default 20)
          --json           print {"items":[record + "matches"],"total","totalCapped","scope","scopes"}

        """

    func run(_ context: CommandContext) throws {
        let id = try context.arguments.required("catalog")
        let query = context.arguments.positionals.joined(separator: " ")
        let limit = try context.arguments.integer("limit", in: 1...SQLiteCatalogStore.maxSearchLimit) ?? 20
        let store = try context.openExisting()
        defer { store.close() }
        let response = try store.search(query, in: id, scope: context.arguments.value("scope"), limit: limit)
        if context.json {
            context.output.write(bytes: response.jsonBytes)
            context.output.line()
            return
        }
        let output = context.output
        let highlight = output.isTerminal
        output.line(
            response.scopes.map { "\($0.label) (\($0.count)\($0.capped ? "+" : ""))" }.joined(separator: "  "))
        output.line("\(response.total)\(response.totalCapped ? "+" : "") found")
        for hit in response.items {
            let ranges = hit.matches.filter { $0.field == "title" }
            let title = highlight ? hit.record.title.highlighted(ranges) : hit.record.title
            var line = "\(hit.record.id)\t\(title.singleLine)"
            if let subtitle = hit.record.subtitle { line += "\t\(subtitle.singleLine)" }
            output.line(line)
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    var singleLine: String {
        contains("\n") ? split(whereSeparator: \.isNewline).joined(separator: " ") : self
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
