import Foundation
import Testing

/// `catalog settings` as a process: shows and changes a catalog's search settings, which
/// `catalog search` applies and an export carries to the catalog it is imported into.
@Suite struct SettingsCommandTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func settingsAreShownChangedAndApplied() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let initial = try cli.run(["settings", "cookbook"])
        #expect(initial.status == 0, "\(initial.stderr)")
        #expect(
            initial.stdout == """
                synonyms:      (none)
                stop words:    (none)
                typos:         one from 5 letters, two from 9
                typo-exempt:   (none)
                exact fields:  id
                searchable:    *
                filterable:    (from the data)
                facets:        (from the data)
                sortable:      (from the data)
                list rows:     (the subtitle, or the categories)
                detail page:   (every field)
                ranking field: (none)

                """)
        #expect(try cli.run(["search", "gulyás", "--catalog", "cookbook"]).stdout.contains("0 found"))

        let changed = try cli.run([
            "settings", "cookbook", "--synonyms", "gulyás,halászlé", "--synonyms", "leves => gulyás", "--stop-words",
            "a, az", "--typo-min", "4,8", "--typo-exempt", "paprika", "--json",
        ])
        #expect(changed.status == 0, "\(changed.stderr)")
        let settings = try json(changed.stdout)
        #expect(settings["synonyms"] as? [String] == ["gulyás, halászlé", "leves => gulyás"])
        #expect(settings["stopWords"] as? [String] == ["a", "az"])
        let typos = try #require(settings["typos"] as? [String: Any])
        #expect(typos["oneTypoFrom"] as? Int == 4 && typos["twoTyposFrom"] as? Int == 8)
        #expect(typos["exemptWords"] as? [String] == ["paprika"])
        #expect(
            try cli.run(["settings", "cookbook"]).stdout == """
                synonyms:      gulyás, halászlé
                               leves => gulyás
                stop words:    a, az
                typos:         one from 4 letters, two from 8
                typo-exempt:   paprika
                exact fields:  id
                searchable:    *
                filterable:    (from the data)
                facets:        (from the data)
                sortable:      (from the data)
                list rows:     (the subtitle, or the categories)
                detail page:   (every field)
                ranking field: (none)

                """)
        let found = try cli.run(["search", "gulyás", "--catalog", "cookbook"]).stdout
        #expect(found.contains("r12\tSzegedi halászlé"), "\(found)")
        #expect(
            try cli.run(["search", "a gulyás", "--catalog", "cookbook"]).stdout == found,
            "a stop word leaves the query")

        // Searchable fields build the index again.
        #expect(try cli.run(["search", "burgonya", "--catalog", "cookbook"]).stdout.contains("r21\t"))
        let sortable = try cli.run(["settings", "cookbook", "--sortable", "complexity, Year", "--json"])
        #expect(try json(sortable.stdout)["sortableFields"] as? [String] == ["complexity", "Year"])
        #expect(try cli.run(["settings", "cookbook"]).stdout.contains("sortable:      complexity, Year\n"))
        let reset = try cli.run(["settings", "cookbook", "--sortable", "", "--json"])
        #expect(try json(reset.stdout)["sortableFields"] == nil)
        let titles = try cli.run(["settings", "cookbook", "--searchable", "title,subtitle", "--json"])
        #expect(try json(titles.stdout)["searchableFields"] as? [String] == ["title", "subtitle"])
        #expect(!(try cli.run(["search", "burgonya", "--catalog", "cookbook"]).stdout.contains("r21\t")))

        // Filterable fields and facets: listed, shown with the catalog's fields, and from the data again.
        let listed = try cli.run([
            "settings", "cookbook", "--filterable", "complexity", "--facets", "complexity", "--json",
        ])
        #expect(listed.status == 0, "\(listed.stderr)")
        let document = try json(listed.stdout)
        #expect(document["filterableFields"] as? [String] == ["complexity"])
        #expect(document["facetFields"] as? [String] == ["complexity"])
        let fields = try #require(document["fields"] as? [[String: Any]])
        #expect(fields.compactMap { $0["name"] as? String } == ["complexity"])
        #expect(try cli.run(["settings", "cookbook"]).stdout.contains("filterable:    complexity\n"))
        let restored = try cli.run(["settings", "cookbook", "--filterable", "", "--facets", "", "--json"])
        #expect(try json(restored.stdout)["filterableFields"] == nil)

        // An empty value removes a setting.
        let cleared = try cli.run(["settings", "cookbook", "--synonyms", "", "--json"])
        #expect(try json(cleared.stdout)["synonyms"] as? [String] == [])
    }

    @Test func mistakesAreToldInTheWordsOfTheOptions() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let reversed = try cli.run(["settings", "cookbook", "--typo-min", "9,5"])
        #expect(reversed.status == 64)
        #expect(reversed.stderr.contains("--typo-min: must not be less than oneTypoFrom (9)"), "\(reversed.stderr)")
        let lonely = try cli.run(["settings", "cookbook", "--synonyms", "car"])
        #expect(lonely.status == 64)
        #expect(lonely.stderr.contains("--synonyms 'car' is a group of one word"), "\(lonely.stderr)")
        #expect(try cli.run(["settings", "cookbook", "--typo-min", "five"]).status == 64)
        let words = try cli.run(["settings", "cookbook", "--stop-words", "a,két szó"])
        #expect(words.stderr.contains(#"--stop-words: "két szó" is not one word"#), "\(words.stderr)")
        #expect(words.status == 64)
        #expect(try cli.run(["settings", "nosuch"]).status == 1)
        #expect(try cli.run(["settings", "cookbook", "--json"]).stdout.contains(#""synonyms":[]"#))
    }

    /// What rows and detail pages show: set, shown, told apart when wrong, and reset.
    @Test func listAndDetailFieldsAreSettings() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let set = try cli.run([
            "settings", "cookbook", "--list-fields", "complexity,categories", "--detail-fields", "complexity",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("list rows:     complexity, categories"))
        #expect(set.stdout.contains("detail page:   complexity"))
        let twice = try cli.run(["settings", "cookbook", "--list-fields", "id,id"])
        #expect(twice.status == 64)
        #expect(twice.stderr.contains(#"--list-fields: "id" is named twice"#), "\(twice.stderr)")
        let reset = try cli.run(["settings", "cookbook", "--list-fields", "", "--detail-fields", ""])
        #expect(reset.stdout.contains("list rows:     (the subtitle, or the categories)"))
        #expect(reset.stdout.contains("detail page:   (every field)"))
    }

    /// A ranking field: set (a leading '-' through '='), shown, refused when it names no record
    /// field, applied by `catalog search`, and removed.
    @Test func aRankingFieldIsASetting() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let set = try cli.run(["settings", "products", "--ranking-field=-sku"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("ranking field: -sku\n"))
        #expect(try json(try cli.run(["settings", "products", "--json"]).stdout)["rankingField"] as? String == "-sku")
        // Search applies it.
        let found = try cli.run(["search", "saw", "--catalog", "products"])
        #expect(found.status == 0, "\(found.stderr)")
        let price = try cli.run(["settings", "products", "--ranking-field", "price"])
        #expect(price.status == 64)
        #expect(
            price.stderr.contains("--ranking-field: \"price\" must name one of the records' own fields"),
            "\(price.stderr)")
        let removed = try cli.run(["settings", "products", "--ranking-field", ""])
        #expect(removed.stdout.contains("ranking field: (none)\n"))
    }

    /// An export carries the settings in its definition; importing it into a new catalog keeps them.
    @Test(arguments: ["json", "csv", "xml"]) func anExportReimportsWithItsSettings(format: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let set = try cli.run([
            "settings", "cookbook", "--synonyms", "phone => iphone", "--stop-words", "the", "--json",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        let file = cli.directory.appendingPathComponent("cookbook.\(format)").path
        let exported = try cli.run(["export", "--catalog", "cookbook", "--format", format, "--output", file])
        #expect(exported.status == 0, "\(exported.stderr)")
        let imported = try cli.run(["import", file, "--catalog", "copy", "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try cli.run(["settings", "copy", "--json"]).stdout == set.stdout)
    }
}
