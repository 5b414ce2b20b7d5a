import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog settings`: a catalog's search settings, shown or changed.
struct SettingsCommand: Command {
    static let name = "settings"
    static let summary = "Show or change a catalog's search settings: synonyms, stop words, typo rules."
    static let synonyms = Option<[SynonymRule?]>(
        "synonyms", value: "RULE",
        help: "a synonym rule: 'auto,car' (each finds the other) or 'phone => iphone' (one way); one rule per "
            + "--synonyms, which together replace the catalog's; '' removes them all",
        each: SettingsCommand.rule)
    static let stopWords = Option<[String]?>(
        "stop-words", value: "WORDS",
        help: "words left out of queries of more than one word, such as the,a,of; '' removes them",
        parse: SettingsCommand.words)
    static let typoMin = Option<[Int]?>(
        "typo-min", value: "N,M",
        help: "the shortest words that may have one typo and two typos (default 5,9; 65 turns them off)",
        parse: SettingsCommand.lengths)
    static let typoExempt = Option<[String]?>(
        "typo-exempt", value: "WORDS", help: "query words that never match with a typo; '' removes them",
        parse: SettingsCommand.words)
    static let typoExemptFields = Option<[String]?>(
        "typo-exempt-fields", value: "FIELDS",
        help: "fields whose words never match with a typo (default id; URLs never do); builds the index again",
        parse: SettingsCommand.words)
    static let searchable = Option<[String]?>(
        "searchable", value: "FIELDS",
        help: "the fields searched, in order of weight (a match in an earlier field ranks first): title, "
            + "subtitle, description, categories, id, extra fields' names, or * for every other field (default *); "
            + "builds the index again",
        parse: SettingsCommand.words)
    static let filterable = Option<[String]?>(
        "filterable", value: "FIELDS",
        help: "the fields filters and facets may name besides category, country and price; '' takes them from "
            + "the data again (short texts with few values, numbers and dates)",
        parse: SettingsCommand.words)
    static let facets = Option<[String]?>(
        "facets", value: "FIELDS", help: "the facets shown by default; '' takes them from the data again",
        parse: SettingsCommand.words)
    static let sortable = Option<[String]?>(
        "sortable", value: "FIELDS",
        help: "the fields results may be sorted by (title and price always sort); '' reads them from the data "
            + "again: number and date fields, and text fields of at most 200 distinct values",
        parse: SettingsCommand.words)
    static let listFields = Option<[String]?>(
        "list-fields", value: "FIELDS",
        help: "what list rows show under the title, in order: subtitle, categories, description, id or fields' "
            + "names; '' shows the subtitle (or the categories) again",
        parse: SettingsCommand.words)
    static let detailFields = Option<[String]?>(
        "detail-fields", value: "FIELDS",
        help: "the record fields a detail page shows, in order; '' shows every field again",
        parse: SettingsCommand.words)
    static let rankingField = Option<String?>(
        "ranking-field", value: "FIELD",
        help: "a record field that orders results within a tier: -population puts the largest first, rank the "
            + "smallest (write --ranking-field=-population); '' removes it",
        parse: { $0.trimmingCharacters(in: .whitespaces) })
    static let json = CommonOptions.json.help(
        "print the settings as GET /api/v1/catalogs/ID/settings shows them, with the catalog's fields")
    static let options: [any OptionDeclaration] = [
        synonyms, stopWords, typoMin, typoExempt, typoExemptFields, searchable, filterable, facets, sortable,
        listFields, detailFields, rankingField, json,
    ]
    static let usage = [
        Usage(
            "ID", .option(synonyms), .option(stopWords), .option(typoMin), .option(typoExempt),
            .option(typoExemptFields), .option(searchable), .option(filterable), .option(facets), .option(sortable),
            .option(listFields), .option(detailFields), .option(rankingField), .option(json),
            .option(CommonOptions.db))
    ]
    static let discussion = """
        Without options, prints catalog ID's search settings. Each option replaces one setting, as
        PATCH /api/v1/catalogs/ID/settings does, in one transaction: every search, here and on
        servers sharing the database, sees the old settings or the new ones. Search applies them
        everywhere (the API, the web app, `catalog search`, offline catalogs): a word finds its
        synonyms too, ranked after exact matches; stop words leave queries of more than one word;
        words have typos by the lengths given; results sort by the sortable fields only. New
        searchable or typo-exempt fields build the catalog's index again from its records.
        Filterable fields and facets are the data's (text fields whose 200 most common values are
        those of at least half of their records, numbers and dates) until listed. List fields and
        detail fields change what the web app's rows and detail pages (and `catalog browse`) show,
        nothing else. A ranking field orders the results of one tier (exact, prefix, typo, …) by a
        record field, such as a city's population: the tiers stay as they are. Exports keep the
        settings.
        """

    func run(_ context: CommandContext) throws {
        let id = try CatalogOptions.catalogID(context.arguments)
        let arguments = context.arguments
        let rules = try arguments[Self.synonyms]
        let stopWords = try arguments[Self.stopWords]
        let lengths = try arguments[Self.typoMin]
        let exempt = try arguments[Self.typoExempt]
        let searchable = try arguments[Self.searchable]
        let exemptFields = try arguments[Self.typoExemptFields]
        let filterable = try arguments[Self.filterable]
        let facets = try arguments[Self.facets]
        let sortable = try arguments[Self.sortable]
        let listFields = try arguments[Self.listFields]
        let detailFields = try arguments[Self.detailFields]
        let rankingField = try arguments[Self.rankingField]
        let database = try context.openExisting()
        defer { database.close() }
        let settings: SearchSettings
        if rules.isEmpty && stopWords == nil && lengths == nil && exempt == nil && exemptFields == nil
            && searchable == nil && filterable == nil && facets == nil && sortable == nil && listFields == nil
            && detailFields == nil && rankingField == nil
        {
            settings = try database.read { reader in
                guard let catalog = try reader.catalog(id) else { throw CLIError.failure("no catalog named \"\(id)\"") }
                return catalog.definition.searchSettings
            }
        } else {
            settings = try Self.run {
                try CatalogManagement.withICU.updateSearchSettings(id, in: database) { current in
                    var settings = current
                    if !rules.isEmpty { settings.synonyms = rules.compactMap { $0 } }
                    if let stopWords { settings.stopWords = stopWords }
                    if let lengths {
                        settings.typos.oneTypoFrom = lengths[0]
                        if lengths.count > 1 { settings.typos.twoTyposFrom = lengths[1] }
                    }
                    if let exempt { settings.typos.exemptWords = exempt }
                    if let exemptFields { settings.typos.exemptFields = exemptFields }
                    if let searchable {
                        settings.searchableFields = searchable.isEmpty ? [SearchSettings.everyField] : searchable
                    }
                    if let filterable { settings.filterableFields = filterable.isEmpty ? nil : filterable }
                    if let facets { settings.facetFields = facets.isEmpty ? nil : facets }
                    if let sortable { settings.sortableFields = sortable.isEmpty ? nil : sortable }
                    if let listFields { settings.listFields = listFields.isEmpty ? nil : listFields }
                    if let detailFields { settings.detailFields = detailFields.isEmpty ? nil : detailFields }
                    if let rankingField { settings.rankingField = rankingField.isEmpty ? nil : rankingField }
                    return settings
                }
            }.settings
        }
        if context.json {
            let fields = try database.read { reader in try reader.fields(of: reader.requireCatalog(id)) }
            context.output.line(try JSON.string(SearchSettingsDocument.Shown(settings: settings, fields: fields)))
        } else {
            for line in Self.text(settings) { context.output.line(line) }
        }
    }

    /// The settings as text, one setting a line (synonym rules one a line).
    static func text(_ settings: SearchSettings) -> [String] {
        func list(_ words: [String]) -> String { words.isEmpty ? "(none)" : words.joined(separator: ", ") }
        var lines: [String] = []
        let rules = settings.synonyms.map(\.description)
        lines.append("synonyms:      " + (rules.first ?? "(none)"))
        for rule in rules.dropFirst() { lines.append("               " + rule) }
        lines.append("stop words:    " + list(settings.stopWords))
        let typos = settings.typos
        lines.append("typos:         one from \(typos.oneTypoFrom) letters, two from \(typos.twoTyposFrom)")
        lines.append("typo-exempt:   " + list(typos.exemptWords))
        lines.append("exact fields:  " + list(typos.exemptFields))
        lines.append("searchable:    " + list(settings.searchableFields))
        lines.append("filterable:    " + (settings.filterableFields.map(list) ?? "(from the data)"))
        lines.append("facets:        " + (settings.facetFields.map(list) ?? "(from the data)"))
        lines.append("sortable:      " + (settings.sortableFields.map(list) ?? "(from the data)"))
        lines.append("list rows:     " + (settings.listFields.map(list) ?? "(the subtitle, or the categories)"))
        lines.append("detail page:   " + (settings.detailFields.map(list) ?? "(every field)"))
        lines.append("ranking field: " + (settings.rankingField ?? "(none)"))
        return lines
    }

    /// A `--synonyms` value: a rule, or nil for `''`.
    @Sendable static func rule(_ text: String) throws(CLIError) -> SynonymRule? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        do {
            return try SynonymRule(parsing: text)
        } catch {
            throw CLIError.usage("--synonyms '\(text.prefix(80))' \(error.message)")
        }
    }

    /// A comma-separated list of words; `''` is none.
    @Sendable static func words(_ text: String) throws(CLIError) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `--typo-min N,M` (or `N`).
    @Sendable static func lengths(_ text: String) throws(CLIError) -> [Int] {
        let range = TypoSettings.lengthRange
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard (1...2).contains(numbers.count), numbers.allSatisfy({ $0.map(range.contains) ?? false }) else {
            throw CLIError.usage(
                "--typo-min takes N,M: the shortest words with one typo and with two, each from "
                    + "\(range.lowerBound) to \(range.upperBound), got '\(text.prefix(40))'")
        }
        return numbers.compactMap { $0 }
    }

    /// Runs the change, its problems told in the words of the options.
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CatalogChangeError where error.code == .invalid {
            throw CLIError.usage(error.problems.map(describe).joined(separator: "; "))
        } catch let error as StorageError where error.code == .catalogNotFound {
            throw CLIError.failure(error.message)
        }
    }

    /// A problem at a JSON pointer of the settings, named by the option that set the member.
    static func describe(_ problem: CatalogChangeError.Problem) -> String {
        let tokens = problem.pointer.split(separator: "/").map(String.init)
        let option: String
        switch tokens.first {
        case "synonyms": option = "--synonyms"
        case "stopWords": option = "--stop-words"
        case "typos" where tokens.count > 1 && tokens[1] == "exemptWords": option = "--typo-exempt"
        case "typos" where tokens.count > 1 && tokens[1] == "exemptFields": option = "--typo-exempt-fields"
        case "typos": option = "--typo-min"
        case "searchableFields": option = "--searchable"
        case "filterableFields": option = "--filterable"
        case "facetFields": option = "--facets"
        case "sortableFields": option = "--sortable"
        case "listFields": option = "--list-fields"
        case "detailFields": option = "--detail-fields"
        case "rankingField": option = "--ranking-field"
        default: option = problem.pointer
        }
        return "\(option): \(problem.message)"
    }
}
