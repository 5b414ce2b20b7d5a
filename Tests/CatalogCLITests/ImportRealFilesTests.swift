import Foundation
import Testing

/// `catalog import` on real files as they come (issue 22): country names, unmapped roles kept by
/// a re-import, tz's header on a comment line, invisible characters in XML, repeated ids.
@Suite struct ImportRealFilesTests {
    @Test func countryNamesImportAndUnknownOnesAreNotes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try cli.write("places.csv", "title,country\nKabul,Afghanistan\nBerlin,DEU\nAtlantis,Atlantis\n")
        let imported = try cli.run(["import", file, "--catalog", "places"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stderr.contains(
                "note: \(file):4:10: field \"country\": country \"Atlantis\" is not a country code or name"))
        let shown = try cli.run(["export", "--catalog", "places", "--format", "json", "--plain"])
        #expect(shown.stdout.contains(#""country":"Afghanistan""#), "\(shown.stdout)")
        #expect(shown.stdout.contains(#""country":"DEU""#))
        let kabul = try cli.run(["show", "--catalog", "places", "kabul", "--json"])
        #expect(kabul.stdout.contains(#""country" : "AF""#), "\(kabul.stdout)")
    }

    @Test func aRoleCanBeUnmappedAndStaysUnmapped() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try cli.write("places.csv", "title,country\nKabul,Afghanistan\n")
        for (catalog, flags) in [("a", ["--no-role", "country"]), ("b", ["--field", "country="])] {
            let imported = try cli.run(["import", file, "--catalog", catalog, "--json"] + flags)
            #expect(imported.status == 0, "\(imported.stderr)")
            let again = try cli.run(["import", file, "--catalog", catalog, "--replace", "--json"])
            #expect(again.status == 0, "\(again.stderr)")
            let kabul = try cli.run(["show", "--catalog", catalog, "kabul", "--json"])
            #expect(kabul.stdout.contains(#""country" : null"#), "\(kabul.stdout)")
            #expect(kabul.stdout.contains("Afghanistan"))
        }
        let contradiction = try cli.run([
            "import", file, "--catalog", "c", "--no-role", "country", "--field", "country=x",
        ])
        #expect(contradiction.status == 64)
        #expect(contradiction.stderr.contains("--no-role country contradicts --field country=x"))
        #expect(!contradiction.stderr.contains("<input>"))
        let unknown = try cli.run(["import", file, "--catalog", "c", "--no-role", "colour"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown role 'colour'"))
    }

    @Test func theTzHeaderOnACommentLine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try cli.write(
            "zones.tab",
            "# zones\n#\n#codes\tcoordinates\tTZ\tcomments\nAT\t+4813+01620\tEurope/Vienna\n"
                + "US\t+404251-0740023\tAmerica/New_York\tEastern\nAT\t+4813+01620\tEurope/Vienna\n")
        let duplicate = try cli.run([
            "import", file, "--catalog", "zones", "--comment", "#", "--field", "id=TZ", "--field", "title=TZ",
        ])
        #expect(duplicate.status != 0)
        #expect(
            duplicate.stderr.contains(
                "\(file):6:16: field \"TZ\": two records have the id \"Europe/Vienna\": this one and the one at "
                    + "\(file):4:16"), "\(duplicate.stderr)")
        let good = try cli.write(
            "good.tab", "#codes\tcoordinates\tTZ\tcomments\nAT\t+4813+01620\tEurope/Vienna\n")
        let imported = try cli.run([
            "import", good, "--catalog", "zones", "--comment", "#", "--field", "id=TZ", "--field", "title=TZ",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("read 1 records"))
    }

    @Test func invisibleCharactersBetweenXMLElementsAreANote() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try cli.write(
            "feed.xml", "<feed>\n<item>\u{200B}<title>Kabul</title><country>AFG</country></item>\n</feed>\n")
        let imported = try cli.run(["import", file, "--catalog", "feed"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("note: \(file):2:"), "\(imported.stderr)")
        let kabul = try cli.run(["show", "--catalog", "feed", "kabul", "--json"])
        #expect(kabul.stdout.contains(#""country" : "AF""#), "\(kabul.stdout)")
    }

    @Test func aFileThatHoldsNoRecordsSaysSo() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try cli.write("pci.ids", "#\n#\tList of PCI IDs\n0001  SafeNet\n\t8139  Ethernet\n")
        let failed = try cli.run(["import", file, "--catalog", "pci"])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("not a record file? \(file) was read as CSV because nothing else fits"))
        let option = try cli.run(["import", file, "--catalog", "pci", "--comment", "\""])
        #expect(option.status == 64)
        #expect(
            option.stderr.contains("catalog import: error: --comment takes one ASCII character"), "\(option.stderr)")
    }

    @Test func countryNamesInTheCatalogsLocale() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let file = try cli.write("orte.csv", "title,country\nBerlin,Deutschland\nWien,Österreich\n")
        let imported = try cli.run(["import", file, "--catalog", "orte", "--locale", "de"])
        #expect(imported.status == 0 && !imported.stderr.contains("note:"), "\(imported.stderr)")
        let wien = try cli.run(["show", "--catalog", "orte", "wien", "--json"])
        #expect(wien.stdout.contains(#""country" : "AT""#), "\(wien.stdout)")
    }
}
