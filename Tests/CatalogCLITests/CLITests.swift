import CatalogTestSupport
import Foundation
import Testing

@Suite struct CLITests {
    @Test func helpAndUsageErrors() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let help = try cli.run(["--help"], useDatabase: false)
        #expect(help.status == 0)
        #expect(help.stdout.contains("COMMANDS:"))
        for command in [
            "import", "demo", "catalogs", "list", "sections", "show", "search", "export", "generate", "user",
        ] {
            let result = try cli.run([command, "--help"], useDatabase: false)
            #expect(result.status == 0, "\(command) --help")
            #expect(result.stdout.contains("USAGE: catalog \(command)"))
        }
        let unknown = try cli.run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown command 'frobnicate'"))
        let badOption = try cli.run(["list", "--catalgo", "x"])
        #expect(badOption.status == 64)
        #expect(badOption.stderr.contains("unknown option '--catalgo'"))
        let badRole = try cli.run(["import", "x.csv", "--catalog", "x", "--field", "colour=Farbe"])
        #expect(badRole.status == 64)
        #expect(badRole.stderr.contains("unknown role 'colour'"))
        let noDatabase = try cli.run(["list", "--catalog", "x"])
        #expect(noDatabase.status == 1)
        #expect(noDatabase.stderr.contains("no database at"))
        #expect(!FileManager.default.fileExists(atPath: cli.database))
    }

    @Test func demoCatalogsMatchTheGoldenFiles() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let cases: [([String], String)] = [
            (["catalogs"], "catalogs.txt"),
            (["sections", "--catalog", "cookbook"], "cookbook-sections.txt"),
            (["sections", "--catalog", "products", "--json"], "products-sections.json"),
            (["list", "--catalog", "sequencers"], "sequencers-list.txt"),
            (["list", "--catalog", "cookbook"], "cookbook-list.txt"),
            (["search", "leves", "--catalog", "cookbook"], "cookbook-search-leves.txt"),
            (["search", "klang", "--catalog", "sequencers", "--scope", "Apple", "--json"], "sequencers-search.json"),
            (["show", "--catalog", "products", "p001"], "products-show-p001.txt"),
        ]
        for (arguments, golden) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(
                result.stdout == (try CLIRunner.golden(golden)),
                "catalog \(arguments.joined(separator: " ")) differs from Golden/\(golden)")
        }
    }

    @Test func sequencersExportIsAnOriginalFeedAndRoundTrips() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.run(["demo", "--quiet"])
        let xml = try cli.run(["export", "--catalog", "sequencers", "--format", "xml"])
        #expect(xml.status == 0)
        #expect(xml.stdout.contains("<sequenzer>"))
        #expect(xml.stdout.contains("<Produkt>"))
        #expect(xml.stdout.contains("<Kategorie>MAC OS X Windows</Kategorie>"))
        #expect(!xml.stdout.contains("<id>"))
        let file = try cli.write("feed.xml", xml.stdout)
        let imported = try cli.run([
            "import", file, "--catalog", "copy", "--locale", "de", "--record", "Produkt", "--field", "title=TitelText",
            "--field", "description=Kurzbeschreibung", "--field", "categories=Kategorie", "--quiet",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let original = try cli.run(["list", "--catalog", "sequencers", "--json"]).stdout
        let copy = try cli.run(["list", "--catalog", "copy", "--json"]).stdout
        // Categories come back as plain values without the definition's mapping: compare the rest.
        #expect(try titles(original) == (try titles(copy)))
        let before = try records(try cli.run(["list", "--catalog", "products", "--json"]).stdout)
        for format in ["json", "csv", "xml"] {
            let output = cli.directory.appendingPathComponent("products.\(format)").path
            #expect(
                try cli.run(["export", "--catalog", "products", "--format", format, "--output", output]).status == 0)
            let back = try cli.run(["import", output, "--catalog", "products", "--replace", "--quiet"])
            #expect(back.status == 0, "\(back.stderr)")
            let after = try records(try cli.run(["list", "--catalog", "products", "--json"]).stdout)
            #expect(after == before, "products survive a \(format) round trip")
        }
    }

    @Test func anImportedXMLShapeIsExportedAgain() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let source = try cli.write(
            "shop.xml",
            """
            <shop>
              <item sku="A-1"><title>Anvil</title><price>12.50</price><tag>iron</tag><tag>heavy</tag></item>
              <item sku="B-2"><title>Bellows</title><price>30</price></item>
            </shop>
            """)
        #expect(try cli.run(["import", source, "--catalog", "shop", "--quiet"]).status == 0)
        let xml = try cli.run(["export", "--catalog", "shop", "--format", "xml"]).stdout
        #expect(xml.contains("<shop>"))
        // The record element's attributes stay attributes.
        #expect(xml.contains(#"<item sku="A-1">"#))
        #expect(xml.contains("<tag>iron</tag>"))
        #expect(xml.contains("<tag>heavy</tag>"))
        let show = try cli.run(["show", "--catalog", "shop", "anvil", "--json"])
        #expect(show.stdout.contains("\"sku\" : \"A-1\""), "\(show.stdout)")
    }

    @Test func badFilesSayWhereAndChangeNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.run(["demo", "--quiet"])
        let shop = try cli.write("shop.csv", "id,title,price\np1,Anvil,12.50\n")
        #expect(try cli.run(["import", shop, "--catalog", "shop", "--quiet"]).status == 0)
        let before = try cli.run(["list", "--catalog", "sequencers", "--json"]).stdout
        let shopBefore = try cli.run(["list", "--catalog", "shop", "--json"]).stdout
        let cases: [(String, String, String)] = [
            (
                "bad.xml",
                "<sequenzer>\n  <Produkt><TitelText>A</TitelText></Produkt>\n  <Produkt><TitelText>B</Titel></Produkt>\n</sequenzer>\n",
                "bad.xml:3:"
            ),
            (
                "bomb.xml",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE s [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<sequenzer><Produkt><TitelText>&b;</TitelText></Produkt></sequenzer>\n",
                "bomb.xml:2:"
            ),
            (
                "xxe.xml",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE s [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<sequenzer><Produkt><TitelText>&x;</TitelText></Produkt></sequenzer>\n",
                "xxe.xml:2:"
            ),
            ("empty.xml", "", "empty.xml"),
            ("price.csv", "id,title,price\np1,Anvil,12.50\np2,Hammer,twelve\n", "price.csv:3:"),
            ("quote.csv", "id,title\np1,\"Anvil\n", "quote.csv:2:"),
            ("bad.json", "[{\"id\": \"p1\", \"title\": \"A\"},\n {\"id\": \"p2\", \"title\": }]", "bad.json:2:"),
            (
                "dup.json", "[{\"id\": \"p1\", \"title\": \"A\"}, {\"id\": \"p1\", \"title\": \"B\"}]",
                "two records have the id \"p1\""
            ),
            ("latin1.csv", "id,title\np1,\u{0}", "latin1.csv"),
        ]
        for (name, content, expected) in cases {
            let path = try cli.write(name, content)
            if name == "latin1.csv" {
                try Data([
                    0x69, 0x64, 0x2C, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x0A, 0x70, 0x31, 0x2C, 0xC4, 0x70, 0x66, 0x65,
                    0x6C, 0x0A,
                ]).write(to: URL(fileURLWithPath: path))
            }
            let catalog = name.hasSuffix(".xml") ? "sequencers" : "shop"
            let result = try cli.run(["import", path, "--catalog", catalog, "--quiet"])
            #expect(result.status == 1, "\(name) must fail")
            #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
            #expect(!result.stderr.contains("root:"), "no local file content in messages")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        #expect(try cli.run(["list", "--catalog", "sequencers", "--json"]).stdout == before)
        #expect(try cli.run(["list", "--catalog", "shop", "--json"]).stdout == shopBefore)
        let feed = try cli.write("feed.xml", "<sequenzer><Produkt><TitelText>A</TitelText></Produkt></sequenzer>")
        let wrongElement = try cli.run(["import", feed, "--catalog", "sequencers", "--record", "Artikel"])
        #expect(wrongElement.status == 1)
        #expect(wrongElement.stderr.contains("Artikel"), "\(wrongElement.stderr)")
        let missing = try cli.run(["import", cli.directory.appendingPathComponent("nope.xml").path, "--catalog", "x"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.xml"))
    }

    private func titles(_ json: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["items"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "" }
    }

    /// Each record as canonical JSON (sorted keys), so comparisons ignore key order.
    private func records(_ json: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try (object?["items"] as? [[String: Any]] ?? []).map { item in
            String(decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]), as: UTF8.self)
        }
    }
}

/// Writers queue: two imports at the same time both succeed, the second waiting for the first.
@Suite struct ConcurrentImportTests {
    @Test func twoImportsAtOnceBothSucceed() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        var files: [String] = []
        for index in 0..<2 {
            var csv = "id,title\n"
            for row in 0..<30_000 { csv += "c\(index)-\(row),Tétel \(row % 311) \(row)\n" }
            let path = cli.directory.appendingPathComponent("batch\(index).csv").path
            try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let results = LockedResults()
        let threads = files.enumerated().map { index, path in
            Thread {
                let result = try? cli.run(["import", path, "--catalog", "batch\(index)", "--quiet"])
                results.append(result?.status ?? -1)
            }
        }
        threads.forEach { $0.start() }
        waitUntil(timeout: 240) { results.count >= 2 }
        #expect(results.all == [0, 0])
        let listed = try cli.run(["catalogs"]).stdout
        #expect(listed.contains("batch0") && listed.contains("batch1"))
    }
}

/// Statuses collected from several threads.
final class LockedResults: @unchecked Sendable {
    // @unchecked: `values` is only touched while `lock` is held.
    private let lock = NSLock()
    private var values: [Int32] = []

    func append(_ value: Int32) { lock.withLock { values.append(value) } }
    var count: Int { lock.withLock { values.count } }
    var all: [Int32] { lock.withLock { values } }
}
