import CatalogTestSupport
import Foundation
import Testing

/// What the CLI prints is safe on a terminal, and printing never kills it: record text with
/// escape sequences is shown with its controls made visible (golden files), exports stay byte for
/// byte, and a standard output or error whose reader went away (`| head -1`) ends a command
/// quietly while `catalog serve` keeps serving and stops cleanly.
@Suite struct TerminalOutputTests {
    /// A title that renames the window (OSC … BEL), clears the screen (CSI 2J), starts a C1 CSI
    /// (U+009B) and reverses the text (U+202E); a subtitle with a tab, a description with lines
    /// and a cursor move.
    static let hostileCSV =
        "id,title,subtitle,description\n"
        + "x1,\"Tea\u{1B}]0;pwned\u{07} time\u{1B}[2J\u{9B}31m\u{202E}\",\"sub\ttab\",\"line1\nline2\u{1B}[H\"\n"
        + "x2,Plain tea,,\n"

    /// Bytes a terminal acts on: C0 controls other than tab and newline, DEL, C1 controls and
    /// the bidirectional overrides.
    static func rawControls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x09, 0x0A: return false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
    }

    @Test func recordTextIsMadeVisibleInListShowSearchAndErrors() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let csv = try cli.write("hostile.csv", Self.hostileCSV)
        #expect(try cli.run(["import", csv, "--catalog", "hostile"]).status == 0)
        let cases: [([String], String)] = [
            (["list", "--catalog", "hostile"], "hostile-list.txt"),
            (["show", "--catalog", "hostile", "x1"], "hostile-show.txt"),
            (["search", "tea", "--catalog", "hostile"], "hostile-search.txt"),
        ]
        for (arguments, golden) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(Self.rawControls(result.stdout).isEmpty, "catalog \(arguments.joined(separator: " "))")
            #expect(
                result.stdout == (try CLIRunner.golden(golden)),
                "catalog \(arguments.joined(separator: " ")) differs from Golden/\(golden)")
        }
        // Tab-separated lines keep their columns: the subtitle's tab is a space.
        let search = try cli.run(["search", "tea", "--catalog", "hostile"]).stdout
        let hit = try #require(search.split(separator: "\n").first { $0.hasPrefix("x1\t") })
        #expect(hit.split(separator: "\t", omittingEmptySubsequences: false).count == 3)

        // Error messages that quote an argument or a record's id.
        let missing = try cli.run(["show", "--catalog", "hostile", "x9\u{1B}]0;pwned\u{07}\u{1B}[2J"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("has no item \"x9␛]0;pwned␇␛[2J\""))
        #expect(Self.rawControls(missing.stderr).isEmpty)
        let unknown = try cli.run(["list", "--catalog", "nope\u{9B}2J"])
        #expect(unknown.status == 1)
        #expect(Self.rawControls(unknown.stderr).isEmpty)

        // Exports are data: the JSON export escapes the controls, the CSV export keeps them.
        let exported = try cli.run(["export", "--catalog", "hostile", "--format", "csv", "--plain"])
        #expect(exported.stdout.contains("Tea\u{1B}]0;pwned\u{07} time\u{1B}[2J\u{9B}31m\u{202E}"))
        let json = try cli.run(["show", "--catalog", "hostile", "x1", "--json"])
        #expect(json.stdout.contains(#"Tea\u001b]0;pwned\u0007 time\u001b[2J"#))
    }

    @Test(arguments: [
        ["list", "--catalog", "many"], ["search", "", "--catalog", "many", "--limit", "200"],
        ["export", "--catalog", "many", "--format", "xml"], ["export", "--catalog", "many", "--format", "csv"],
        ["show", "--catalog", "many", "--json", "g0000001"], ["catalogs"],
    ])
    func aClosedStandardOutputEndsQuietly(arguments: [String]) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        // More than the output's 64 KiB buffer, so the closed pipe is met in the middle.
        #expect(
            try cli.run(["generate", "--catalog", "many", "--items", "3000", "--seed", "3", "--quiet"]).status == 0)
        let run = try cli.runWithClosedOutput(arguments)
        #expect(run.ending == CLIRunner.Ending(reason: .exit, status: 0), "catalog \(arguments.joined(separator: " "))")
        #expect(run.stderr == "", "catalog \(arguments.joined(separator: " "))")
    }

    @Test func aClosedStandardErrorIsNoCrash() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        // The error message cannot be written: the status still says what happened.
        let missing = try cli.runWithClosedOutput(
            ["show", "--catalog", "cookbook", "nothing"], closeOutput: false, closeError: true)
        #expect(missing.ending == CLIRunner.Ending(reason: .exit, status: 1))
        let both = try cli.runWithClosedOutput(["list", "--catalog", "nope"], closeOutput: true, closeError: true)
        #expect(both.ending == CLIRunner.Ending(reason: .exit, status: 1))
        let demo = try cli.runWithClosedOutput(["demo"], closeOutput: true, closeError: true)
        #expect(demo.ending == CLIRunner.Ending(reason: .exit, status: 0))
    }

    /// `catalog serve 2>&1 | head`: once the log's reader is gone the server keeps answering,
    /// writes its access-log and shutdown lines into nothing, and stops with status 0 on SIGTERM.
    @Test func serveKeepsServingAfterItsLogReaderWentAway() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        let (process, port, err) = try ServeCommandTests.start(cli)
        try err.fileHandleForReading.close()
        try (process.standardOutput as? Pipe)?.fileHandleForReading.close()
        let client = RawClient(port: port)
        for _ in 0..<20 {
            // Each answer is logged to the closed standard error first.
            #expect(try client.request("GET", "/api/v1/catalogs").status == 200)
        }
        #expect(try client.request("GET", "/c/cookbook").status == 200)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
