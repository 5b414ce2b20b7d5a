import SQLiteSupport
import CatalogTestSupport
import Foundation
import Testing

/// `catalog import`, `catalog refresh` and `catalog export` as processes: URL feeds, conditional
/// GETs, temporary files on SIGTERM, notes, SQLite exports, the background refresher of serve.
@Suite(.serialized) struct ImportCommandTests {
    static func feed(_ titles: [String]) -> String {
        "<sequenzer>" + titles.map { "<Produkt><TitelText>\($0)</TitelText></Produkt>" }.joined() + "</sequenzer>"
    }

    @Test func refreshSaysNotModifiedAndReimportsChanges() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = LoopbackFeed(Self.feed(["Klangwerk Studio", "Taktmeister"]))
        let server = try LoopbackHTTPServer(routes: ["/feed.xml": .feed(feed)])
        defer { server.stop() }
        let imported = try cli.run([
            "import", server.baseURL + "/feed.xml", "--catalog", "feed", "--field", "title=TitelText", "--json",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains(#""notes":[]"#))
        #expect(imported.stdout.contains(#""total":2"#))

        let unchanged = try cli.run(["refresh", "feed"])
        #expect(unchanged.status == 0)
        #expect(unchanged.stdout == "not modified\n")
        #expect(try cli.run(["refresh", "feed", "--json"]).stdout == "{\"notModified\":true}\n")

        feed.update(Self.feed(["Klangwerk Studio", "Taktmeister", "Notenfluss"]))
        let changed = try cli.run(["refresh", "feed"])
        #expect(changed.status == 0)
        #expect(changed.stderr.contains("feed: read 3 records (1 new, 0 updated, 0 removed), 3 in the catalog"))
        #expect(try cli.run(["refresh", "feed"]).stdout == "not modified\n")
        #expect(feed.answers.full == 2 && feed.answers.notModified == 3)

        let local = try cli.write("local.xml", Self.feed(["A"]))
        #expect(
            try cli.run(["import", local, "--catalog", "file", "--field", "title=TitelText", "--quiet"]).status == 0)
        let notFromURL = try cli.run(["refresh", "file"])
        #expect(notFromURL.status == 1)
        #expect(notFromURL.stderr.contains("was not imported from a URL"))
    }

    @Test func sigtermDuringADownloadRemovesTheTemporaryFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let server = try LoopbackHTTPServer(routes: [
            "/slow.xml": .trickle(String(repeating: "x", count: 1000), interval: 0.05)
        ])
        defer { server.stop() }
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["import", server.baseURL + "/slow.xml", "--catalog", "slow", "--db", cli.database]
        process.standardOutput = Pipe()
        let err = Pipe()
        process.standardError = err
        try process.run()
        let prefix = "catalog-download-\(process.processIdentifier)-"
        let temporary = FileManager.default.temporaryDirectory.path
        func leftovers() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter { $0.hasPrefix(prefix) }
        }
        waitUntil(timeout: 20) { !leftovers().isEmpty }
        #expect(!leftovers().isEmpty, "the download never started")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(leftovers().isEmpty)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("SIGTERM: stopped; nothing was changed, temporary files removed"))
        let catalogs = try cli.run(["catalogs"]).stdout
        #expect(!catalogs.contains("slow"))
    }

    @Test func downloadLimitAndDeadline() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let server = try LoopbackHTTPServer(routes: [
            "/big.csv": .status(200, body: String(repeating: "x", count: 2 << 20)),
            "/slow.csv": .trickle(String(repeating: "x", count: 100), interval: 0.5),
        ])
        defer { server.stop() }
        let big = try cli.run(["import", server.baseURL + "/big.csv", "--catalog", "b", "--max-download-mb", "1"])
        #expect(big.status == 1)
        #expect(big.stderr.contains("larger than 1 MB (--max-download-mb)"))
        let started = Date()
        let slow = try cli.run(["import", server.baseURL + "/slow.csv", "--catalog", "s", "--timeout", "2"])
        #expect(slow.status == 1)
        #expect(slow.stderr.contains("timed out after 2 s (the whole download)"))
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test func compressedBombsAndPrivateRedirects() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let segment = Compression.segment(of: [UInt8](repeating: 0, count: 1 << 20))
        let other = try LoopbackHTTPServer(routes: ["/feed.xml": .status(200, body: Self.feed(["Klangwerk Studio"]))])
        defer { other.stop() }
        let server = try LoopbackHTTPServer(routes: [
            "/bomb.xml": .custom { connection in
                guard connection.send("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"),
                    connection.send(Compression.Framing.gzip.header)
                else { return }
                while connection.send(segment) {}
            },
            "/moved.xml": .redirect(to: other.baseURL + "/feed.xml"),
        ])
        defer { server.stop() }
        // A gzip stream that never ends: only the decoded-size limit stops it, long before the deadline.
        let bomb = try cli.run([
            "import", server.baseURL + "/bomb.xml", "--catalog", "b", "--max-download-mb", "2", "--timeout", "600",
        ])
        #expect(bomb.status == 1)
        #expect(bomb.stderr.contains("larger than 2 MB (--max-download-mb)"), "\(bomb.stderr)")

        let moved = server.baseURL + "/moved.xml"
        let refused = try cli.run(["import", moved, "--catalog", "m", "--field", "title=TitelText"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot download \(moved): refused the redirect to \(other.baseURL)/feed.xml"))
        #expect(refused.stderr.contains("--allow-private-fetch"))
        #expect(other.requestedPaths.isEmpty)
        let allowed = try cli.run([
            "import", moved, "--catalog", "m", "--field", "title=TitelText", "--allow-private-fetch", "--quiet",
        ])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try cli.run(["refresh", "m", "--quiet"]).status == 1)
        #expect(try cli.run(["refresh", "m", "--quiet", "--allow-private-fetch"]).status == 0)
        for command in ["import", "refresh", "serve"] {
            #expect(try cli.run([command, "--help"], useDatabase: false).stdout.contains("--allow-private-fetch"))
        }
    }

    /// A CSV export is a plain table (no comment line for spreadsheets and pandas to trip on);
    /// its definition goes beside it and comes back with the import; `--plain` removes a stale one.
    @Test func aCSVExportKeepsItsDefinitionBesideIt() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let xml = try cli.write(
            "apps.xml",
            #"<r><app><id>a</id><name>Calculator</name><name xml:lang="sr@latin">Kalkulator</name></app></r>"#)
        #expect(try cli.run(["import", xml, "--catalog", "apps", "--field", "title=name", "--quiet"]).status == 0)
        let csv = cli.directory.appendingPathComponent("apps.csv").path
        let exported = try cli.run(["export", "--catalog", "apps", "--format", "csv", "--output", csv])
        #expect(exported.status == 0, "\(exported.stderr)")
        let table = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(table.hasPrefix("id,name,name@sr@latin\r\n"), "\(table)")
        let sidecar = csv + ".definition.json"
        #expect(FileManager.default.fileExists(atPath: sidecar))
        #expect(try cli.run(["import", csv, "--catalog", "copy", "--quiet"]).status == 0)
        let copy = try cli.run(["export", "--catalog", "copy", "--format", "xml"]).stdout
        #expect(copy.contains(#"<name xml:lang="sr@latin">Kalkulator</name>"#), "\(copy)")
        // Plain: the table only, and no definition file left from before.
        #expect(
            try cli.run(["export", "--catalog", "apps", "--format", "csv", "--plain", "--output", csv]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sidecar))
        // On standard output there is no room for it (the help says so).
        #expect(try cli.run(["export", "--catalog", "apps", "--format", "csv"]).stdout.hasPrefix("id,name,"))
    }

    @Test func notesAndMappingErrors() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let xml = try cli.write(
            "notes.xml", "<r><i><t>A</t><t>B</t><c>x</c></i><i><t>C</t><c>y</c></i></r>")
        let result = try cli.run(["import", xml, "--catalog", "n", "--field", "title=t"])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "note: title: 1 record had several \"t\" values; the first untranslated one is the title, all are kept in \"t\""
            ))
        let missing = try cli.run(["import", xml, "--catalog", "m", "--field", "title=t", "--field", "id=code"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("--field id=code: no field \"code\" in the source; its fields: t, c"),
            "\(missing.stderr)")
        #expect(try cli.run(["list", "--catalog", "m"]).status == 1)
        let badType = try cli.run(["import", xml, "--catalog", "n", "--type", "c=colour"])
        #expect(badType.status == 64)
        #expect(badType.stderr.contains("--type takes NAME=number"))
    }

    @Test func sqliteExportIsAPlainTable() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try cli.run(["demo", "--quiet"])
        let output = cli.directory.appendingPathComponent("products.sqlite").path
        #expect(try cli.run(["export", "--catalog", "products", "--format", "sqlite", "--output", output]).status == 0)
        let connection = try Connection(path: output, mode: .readOnly)
        defer { connection.close() }
        let count = try connection.prepare("SELECT count(*) FROM products").scalarInt()
        #expect(count == 40)
        let statement = try connection.prepare("SELECT name, price, category FROM products WHERE id = 'p008'")
        #expect(try statement.step())
        #expect(statement.text(0) == "Heavy Duty Staple Gun")
        #expect(statement.text(2) == #"["Tools","Office"]"#)
        statement.finish()
        // Back into a new catalog without flags: the same records.
        #expect(try cli.run(["import", output, "--catalog", "copy", "--quiet"]).status == 0)
        let original = try cli.run(["list", "--catalog", "products", "--json"]).stdout
        let copy = try cli.run(["list", "--catalog", "copy", "--json"]).stdout
        #expect(copy == original)
        #expect(try cli.run(["export", "--catalog", "products", "--format", "sqlite"]).status == 64)
    }

    /// A quote with a combining mark in a field's name is still a quote to SQLite: the column's
    /// name is quoted by scalars, so the export and its re-import keep the field.
    @Test func sqliteColumnNamesWithMarkedQuotesRoundTrip() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let json = cli.directory.appendingPathComponent("marks.json")
        try Data(#"[{"id":"a","title":"One","q\"\#u{301}x":"v1"},{"id":"b","title":"Two","q\"\#u{301}x":"v2"}]"#.utf8)
            .write(to: json)
        #expect(try cli.run(["import", json.path, "--catalog", "marks", "--quiet"]).status == 0)
        let output = cli.directory.appendingPathComponent("marks.sqlite").path
        let export = try cli.run(["export", "--catalog", "marks", "--format", "sqlite", "--output", output])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try cli.run(["import", output, "--catalog", "copy", "--quiet"]).status == 0)
        let copy = try cli.run(["show", "b", "--catalog", "copy", "--json"]).stdout
        #expect(copy.contains("\"q\\\"\u{301}x\" : \"v2\""), "\(copy)")
    }

    @Test func serveRefreshesURLSourcedCatalogsInTheBackground() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = LoopbackFeed(Self.feed(["Klangwerk Studio"]))
        let server = try LoopbackHTTPServer(routes: ["/feed.xml": .feed(feed)])
        defer { server.stop() }
        #expect(
            try cli.run(["import", server.baseURL + "/feed.xml", "--catalog", "feed", "--field", "title=TitelText"])
                .status == 0)
        feed.update(Self.feed(["Klangwerk Studio", "Loopgarten"]))
        let (process, port, err) = try ServeCommandTests.start(cli, ["--refresh-every", "1s", "--quiet"])
        let client = RawClient(port: port)
        var count = ""
        waitUntil(timeout: 20, every: .milliseconds(50)) {
            count = (try? client.request("GET", "/api/v1/catalogs/feed").text) ?? ""
            return count.contains("\"count\":2")
        }
        #expect(count.contains("\"count\":2"))
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("catalog serve: refresh feed: read 2 records"))
        #expect(try cli.run(["serve", "--refresh-every", "soon"]).status == 64)
    }
}
