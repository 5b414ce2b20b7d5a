import Foundation
import Testing

/// `catalog put`, `set`, `rm`, `history` and `restore` on the demo catalogs.
@Suite struct EditCommandTests {
    func demo() throws -> CLIRunner {
        let cli = try CLIRunner()
        let made = try cli.run(["demo"])
        #expect(made.status == 0, "\(made.stderr)")
        return cli
    }

    @Test func putSetRemoveAndRestore() throws {
        let cli = try demo()
        defer { cli.cleanUp() }
        let records = try cli.write(
            "new.ndjson",
            """
            {"id":"x1","title":"Almás lepény","categories":["Desszertek"]}
            {"id":"x2","title":"Bableves","price":3,"currency":"huf"}

            """)
        let put = try cli.run(["put", "cookbook", records])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.stdout.hasPrefix("2 created"))
        #expect(try cli.run(["show", "--catalog", "cookbook", "x2"]).stdout.contains("price: 3 HUF"))

        let set = try cli.run(["set", "cookbook", "x2", "title=Babgulyás", "price=4.5", "--json"])
        #expect(set.status != 0, "a text title read as JSON is not valid")
        let typed = try cli.run(["set", "cookbook", "x2", "title=Babgulyás", "currency="])
        #expect(typed.status == 0, "\(typed.stderr)")
        let shown = try cli.run(["show", "--catalog", "cookbook", "x2", "--json"]).stdout
        #expect(shown.contains("\"Babgulyás\""))
        #expect(shown.contains("\"currency\" : null"))
        #expect(try cli.run(["search", "--catalog", "cookbook", "babgulyas"]).stdout.contains("x2"))

        #expect(try cli.run(["rm", "cookbook", "x1", "nope"]).status == 1, "nothing is removed when one is missing")
        #expect(try cli.run(["show", "--catalog", "cookbook", "x1"]).status == 0)
        #expect(try cli.run(["rm", "cookbook", "x1"]).stdout.hasPrefix("1 deleted"))
        #expect(try cli.run(["show", "--catalog", "cookbook", "x1"]).status != 0)

        let history = try cli.run(["history", "cookbook", "x1"])
        #expect(history.status == 0)
        let numbers = history.stdout.split(separator: "\n").compactMap { Int($0.split(separator: "\t").first ?? "") }
        #expect(numbers.count == 2)
        let created = try #require(numbers.last)
        let restored = try cli.run(["restore", "cookbook", "x1", "--at", String(created)])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try cli.run(["show", "--catalog", "cookbook", "x1"]).stdout.contains("Almás lepény"))
        #expect(try cli.run(["history", "cookbook", "--json"]).stdout.contains("\"kind\" : \"upsert\""))
    }

    @Test func badRecordsNameEveryProblemAndChangeNothing() throws {
        let cli = try demo()
        defer { cli.cleanUp() }
        let records = try cli.write("bad.json", #"[{"id":"y1","title":"Jó"},{"id":"y2","title":"","price":-1}]"#)
        let put = try cli.run(["put", "cookbook", records])
        #expect(put.status == 1)
        #expect(put.stderr.contains("/1/title"))
        #expect(put.stderr.contains("/1/price"))
        #expect(try cli.run(["show", "--catalog", "cookbook", "y1"]).status != 0)
        #expect(try cli.run(["put", "cookbook", "-"], input: "{\"id\":\"y3\",\"title\":\"Stdin\"}").status == 0)
        #expect(try cli.run(["set", "cookbook"]).status == 64)
        #expect(try cli.run(["set", "cookbook", "nope", "title=x"]).status == 1)
        #expect(try cli.run(["restore", "cookbook", "y3"]).status == 64)
    }
}
