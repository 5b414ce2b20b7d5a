import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `catalog create`, `catalog set-catalog` and `catalog delete` as processes.
@Suite struct CatalogCommandsTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func createMakesAnEmptyCatalogThatImportsFollow() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let created = try cli.run([
            "create", "pantry", "--title", "Kamra", "--locale", "hu", "--field", "title=name", "--type", "kg=number",
            "--label", "kg@hu=Súly", "--json",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let detail = try json(created.stdout)
        #expect(detail["count"] as? Int == 0)
        #expect(detail["roles"] as? [String: String] == ["title": "name"])
        #expect(detail["types"] as? [String: String] == ["kg": "number"])
        #expect(detail["labels"] as? [String: [String: String]] == ["kg": ["hu": "Súly"]])
        #expect(try cli.run(["catalogs"]).stdout.wholeMatch(of: /pantry +hu +0  Kamra\n/) != nil)

        let csv = try cli.write("pantry.csv", "name,kg\nCsicseriborsó,1\nZab,0.5\n")
        let imported = try cli.run(["import", csv, "--catalog", "pantry", "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let record = try json(try cli.run(["show", "--catalog", "pantry", "zab", "--json"]).stdout)
        #expect(record["title"] as? String == "Zab")
        #expect((record["fields"] as? [String: Any])?["kg"] as? Double == 0.5)
        #expect(try cli.run(["sections", "--catalog", "pantry"]).stdout == "CS\t1\nZ\t1\n")

        let again = try cli.run(["create", "pantry"])
        #expect(again.status == 1)
        #expect(again.stderr == "catalog create: error: a catalog named \"pantry\" exists already\n")
    }

    @Test func problemsAreToldInTheWordsOfTheOptions() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let bad = try cli.run(["create", "new", "--locale", "xx", "--label", "price@zz=P"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("catalog create: error: --locale: Unknown locale \"xx\""))
        #expect(bad.stderr.contains("; --label price@zz=…: \"zz\" is not a language tag"))
        #expect(try cli.run(["create", "no good"]).status == 64)
        #expect(try cli.run(["create", "x", "--field", "colour=c"]).stderr.contains("unknown role 'colour'"))
        #expect(try cli.run(["create", "x", "--label", "price=P"]).stderr.contains("--label takes FIELD@LANG=TEXT"))
        #expect(try cli.run(["catalogs"]).stdout == "")
    }

    @Test func setCatalogChangesTitleLocaleRolesAndLabels() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        #expect(try cli.run(["sections", "--catalog", "cookbook"]).stdout.contains("CS\t"))

        let german = try cli.run(["set-catalog", "cookbook", "--locale", "de", "--title", "Kochbuch"])
        #expect(german.status == 0, "\(german.stderr)")
        #expect(german.stderr == "catalog \"cookbook\": rebuilt its 32 records for locale de\n")
        let sections = try cli.run(["sections", "--catalog", "cookbook"]).stdout
        #expect(!sections.contains("CS\t") && sections.contains("C\t"))
        #expect(try cli.run(["catalogs"]).stdout.contains("cookbook    de          32  Kochbuch"))

        let labelled = try cli.run(["set-catalog", "cookbook", "--label", "complexity@de=Dauer", "--json"])
        #expect(labelled.status == 0)
        let labels = try json(labelled.stdout)["labels"] as? [String: [String: String]]
        #expect(labels?["complexity"]?["de"] == "Dauer")
        let removed = try cli.run(["set-catalog", "cookbook", "--label", "complexity@de=", "--json"])
        #expect((try json(removed.stdout)["labels"] as? [String: [String: String]])?["complexity"]?["de"] == nil)

        let remapped = try cli.run(["set-catalog", "cookbook", "--field", "title=subtitle"])
        #expect(remapped.stderr == "catalog \"cookbook\": mapped its 32 records again\n")
        let r01 = try json(try cli.run(["show", "--catalog", "cookbook", "r01", "--json"]).stdout)
        #expect(r01["title"] as? String == "Mari néni receptje alapján")
        #expect((r01["fields"] as? [String: Any])?["title"] as? String == "Csirkepaprikás")
        #expect(try cli.run(["set-catalog", "cookbook", "--field", "title="]).status == 0)
        let back = try json(try cli.run(["show", "--catalog", "cookbook", "r01", "--json"]).stdout)
        #expect(back["title"] as? String == "Csirkepaprikás")

        let nothing = try cli.run(["set-catalog", "cookbook"])
        #expect(nothing.status == 64)
        #expect(nothing.stderr.contains("nothing to change"))
        let unknown = try cli.run(["set-catalog", "cookbook", "--locale", "tlh"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--locale: Unknown locale \"tlh\""))
        let missing = try cli.run(["set-catalog", "nowhere", "--title", "X"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "catalog set-catalog: error: no catalog named \"nowhere\"\n")
    }

    /// `--visibility` says who sees a catalog; `catalogs` shows it, and an export carries it into
    /// the catalog its import makes.
    @Test func setCatalogVisibilityIsShownAndKeptByExports() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let hidden = try cli.run(["set-catalog", "cookbook", "--visibility", "members", "--json"])
        #expect(hidden.status == 0, "\(hidden.stderr)")
        #expect(try json(hidden.stdout)["visibility"] as? String == "members")
        #expect(
            try cli.run(["set-catalog", "products", "--visibility", "signed-in"]).stderr
                == "catalog \"products\": its definition changed\n")
        #expect(
            try cli.run(["catalogs"]).stdout == """
                cookbook    hu          32  Szakácskönyv  [members]
                products    en          40  Products  [signed-in]
                sequencers  de          11  Sequenzer

                """)
        let listed = try json(try cli.run(["catalogs", "--json"]).stdout)["catalogs"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["visibility"] as? String } == ["members", "signed-in", "public"])

        let wrong = try cli.run(["set-catalog", "cookbook", "--visibility", "friends"])
        #expect(wrong.status == 64)
        #expect(
            wrong.stderr.contains("--visibility takes public, signed-in, members, not \"friends\""), "\(wrong.stderr)")

        // An export imported into a new catalog stays as private as it was.
        let file = cli.directory.appendingPathComponent("cookbook.json").path
        #expect(try cli.run(["export", "--catalog", "cookbook", "--format", "json", "--output", file]).status == 0)
        let imported = try cli.run(["import", file, "--catalog", "cookbook2", "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try cli.run(["catalogs"]).stdout.contains("cookbook2   hu          32  Szakácskönyv  [members]"))

        #expect(try cli.run(["set-catalog", "cookbook", "--visibility", "public"]).status == 0)
        #expect(try cli.run(["catalogs"]).stdout.hasPrefix("cookbook    hu          32  Szakácskönyv\n"))
    }

    /// `--description` sets what a catalog holds (an empty text removes it); `catalogs --json`
    /// shows it, and exports carry it into the catalog their import makes.
    @Test func setCatalogDescriptionIsShownAndKeptByExports() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        func descriptions() throws -> [String: String] {
            let listed = try json(try cli.run(["catalogs", "--json"]).stdout)["catalogs"] as? [[String: Any]] ?? []
            var found: [String: String] = [:]
            for catalog in listed {
                if let id = catalog["id"] as? String, let text = catalog["description"] as? String { found[id] = text }
            }
            return found
        }
        // The demo catalogs have their own, in their languages.
        #expect(try descriptions()["sequencers"]?.hasPrefix("Programme zum Aufnehmen") == true)
        #expect(try descriptions().keys.sorted() == ["cookbook", "products", "sequencers"])

        let set = try cli.run([
            "set-catalog", "products", "--description", "Saws, cups and cans.\nAll invented.", "--json",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try json(set.stdout)["description"] as? String == "Saws, cups and cans.\nAll invented.")
        #expect(
            try cli.run(["set-catalog", "products", "--description", "Saws, cups and cans."]).stderr
                == "catalog \"products\": its definition changed\n")
        #expect(try descriptions()["products"] == "Saws, cups and cans.")

        // Exports in every text format carry it into the catalog their import makes.
        for format in ["json", "xml", "csv"] {
            let file = cli.directory.appendingPathComponent("products.\(format)").path
            let exported = try cli.run(["export", "--catalog", "products", "--format", format, "--output", file])
            #expect(exported.status == 0, "\(exported.stderr)")
            let imported = try cli.run(["import", file, "--catalog", "products-\(format)", "--quiet"])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try descriptions()["products-\(format)"] == "Saws, cups and cans.", "\(format)")
        }

        let long = String(repeating: "x", count: 501)
        let tooLong = try cli.run(["set-catalog", "products", "--description", long])
        #expect(tooLong.status == 64)
        #expect(
            tooLong.stderr.hasPrefix(
                "catalog set-catalog: error: --description: is 501 characters long; a description has at most 500\n"),
            "\(tooLong.stderr)")
        let escape = try cli.run(["create", "notes", "--description", "red \u{1B}[31m"])
        #expect(escape.status == 64)
        #expect(escape.stderr.contains("--description: holds the control character U+001B at character 5"))

        // An empty text removes it; create takes one.
        let cleared = try cli.run(["set-catalog", "products", "--description", "", "--json"])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(try json(cleared.stdout)["description"] is NSNull)
        #expect(try descriptions()["products"] == nil)
        let created = try cli.run(["create", "notes", "--description", "Jegyzetek.", "--json"])
        #expect(try json(created.stdout)["description"] as? String == "Jegyzetek.")
    }

    /// Without a terminal to confirm on, only `--yes` deletes.
    @Test func deleteNeedsYesWithoutATerminal() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let refused = try cli.run(["delete", "products"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("not deleting catalog \"products\": standard input is not a terminal"))
        #expect(refused.stderr.contains("give --yes"))
        #expect(try cli.run(["catalogs"]).stdout.contains("products"))

        let deleted = try cli.run(["delete", "products", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stderr == "deleted catalog \"products\" with 40 records\n")
        #expect(!(try cli.run(["catalogs"]).stdout.contains("products")))
        let again = try cli.run(["delete", "products", "--yes"])
        #expect(again.status == 1)
        #expect(again.stderr == "catalog delete: error: no catalog named \"products\"\n")
    }

    /// On a terminal the catalog's id must be typed to delete it.
    @Test(arguments: [("cookbook\n", true), ("yes\n", false), ("", false)])
    func deleteOnATerminalAsksForTheId(answer: String, deletes: Bool) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let terminal = try PseudoTerminal()
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["delete", "cookbook", "--db", cli.database]
        process.standardInput = terminal.follower
        process.standardOutput = Pipe()
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        terminal.type(answer.isEmpty ? "\u{04}" : answer)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(stderr.hasPrefix("Delete catalog cookbook with 32 records? Type its id to confirm: "))
        #expect(process.terminationStatus == (deletes ? 0 : 1), "\(stderr)")
        #expect(try cli.run(["catalogs"]).stdout.contains("cookbook") == !deletes)
        if !deletes { #expect(stderr.contains("not deleted: the answer was not \"cookbook\"")) }
    }
}

/// A pseudo-terminal: the follower is a process's standard input, and what is typed on the
/// leader arrives there a line at a time, as from a keyboard.
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle

    /// Linux's `TIOCSPTLCK` and `TIOCGPTN` (Glibc's module exports neither, nor `posix_openpt`).
    private static let unlock: UInt = 0x4004_5431
    private static let number: UInt = 0x8004_5430

    init() throws {
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlocked: Int32 = 0
        var number: UInt32 = 0
        guard leader >= 0, ioctl(leader, Self.unlock, &unlocked) == 0, ioctl(leader, Self.number, &number) == 0
        else { throw POSIXError(.ENOTTY) }
        let descriptor = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard descriptor >= 0, isatty(descriptor) != 0 else { throw POSIXError(.ENOTTY) }
        follower = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Types `text` (a line, or Control-D for the end of input).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    deinit {
        close(leader)
    }
}
