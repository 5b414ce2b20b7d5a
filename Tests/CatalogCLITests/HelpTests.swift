import Foundation
import Testing

@testable import CatalogCLI

/// `--help` is drawn from the option declarations: these tests hold every command's help to its
/// golden file, and the parser and the help to each other, so neither can drift.
///
/// A help text changed on purpose is written again with
/// `.build/debug/catalog X --help > Tests/CatalogCLITests/Golden/help-X.txt` (and
/// `catalog --help > …/help.txt`); the diff is then the review of the change.
@Suite struct HelpTests {
    static let commandNames = CatalogCommandLine.commands.map { $0.name }

    @Test func overviewMatchesItsGoldenFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let golden = try CLIRunner.golden("help.txt")
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try cli.run(arguments, useDatabase: false)
            #expect(result.status == 0, "catalog \(arguments.joined(separator: " "))")
            #expect(
                result.stdout == golden,
                "catalog \(arguments.joined(separator: " ")) differs from Golden/help.txt:\n\(result.stdout)")
        }
        let bare = try cli.run([], useDatabase: false)
        #expect(bare.status == 64)
        #expect(bare.stdout == golden)
    }

    @Test(arguments: commandNames) func commandHelpMatchesItsGoldenFile(_ name: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let golden = try CLIRunner.golden("help-\(name).txt")
        for arguments in [[name, "--help"], [name, "-h"], ["help", name]] {
            let result = try cli.run(arguments, useDatabase: false)
            #expect(result.status == 0, "catalog \(arguments.joined(separator: " "))")
            #expect(result.stderr == "")
            #expect(
                result.stdout == golden,
                "catalog \(arguments.joined(separator: " ")) differs from Golden/help-\(name).txt:\n\(result.stdout)")
        }
    }

    @Test func everyHelpGoldenFileNamesACommand() throws {
        let folder = try #require(Bundle.module.url(forResource: "Golden", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("help-") }
        #expect(Set(files) == Set(Self.commandNames.map { "help-\($0).txt" }))
    }

    /// Every option a command's help shows (USAGE and OPTIONS) is accepted by the binary: given all
    /// at once with `--help`, the command prints its help instead of a usage error.
    @Test(arguments: commandNames) func theBinaryAcceptsEveryOptionItsHelpShows(_ name: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let golden = try CLIRunner.golden("help-\(name).txt")
        let document = HelpDocument(golden)
        var arguments = [name]
        for row in document.optionRows {
            arguments += row.takesValue ? ["--\(row.name)", "x"] : ["--\(row.name)"]
        }
        for option in document.usageOptions where !document.optionRows.contains(where: { $0.name == option }) {
            arguments += ["--\(option)", "x"]  // a global option such as --db
        }
        let result = try cli.run(arguments + ["--help"], useDatabase: false)
        #expect(result.status == 0, "catalog \(arguments.joined(separator: " ")) --help: \(result.stderr)")
        #expect(result.stdout == golden)
    }

    /// The options the parser accepts for a command are exactly those its help documents: its own
    /// in its OPTIONS table, the global ones in `catalog --help`; options of other commands are refused.
    @Test(arguments: commandNames) func theParserAndTheHelpAgree(_ name: String) throws {
        let command = try #require(CatalogCommandLine.commands.first { $0.name == name })
        let accepted = command.acceptedOptions
        #expect(Set(accepted.map(\.name)).count == accepted.count, "an option declared twice")
        let help = HelpDocument(command.help)
        let overview = HelpDocument(CatalogCommandLine.overview)
        let documented = help.optionRows + overview.globalRows
        #expect(Set(documented.map(\.name)) == Set(accepted.map(\.name)))
        for row in documented {
            let spec = try #require(accepted.first { $0.name == row.name })
            #expect(row.takesValue == (spec.kind == .option), "--\(row.name)")
        }
        for option in help.usageOptions {
            #expect(accepted.contains { $0.name == option }, "USAGE shows --\(option), which the parser refuses")
        }
        for spec in accepted {
            let given = spec.kind == .flag ? ["--\(spec.name)"] : ["--\(spec.name)", "value"]
            #expect(throws: Never.self, "--\(spec.name)") { try Arguments(given, accepting: accepted) }
            if spec.kind == .option {
                #expect(throws: Never.self) { try Arguments(["--\(spec.name)=value"], accepting: accepted) }
                let error = #expect(throws: CLIError.self) { try Arguments(["--\(spec.name)"], accepting: accepted) }
                #expect(error?.message == "option '--\(spec.name)' needs a value")
            } else {
                let error = #expect(throws: CLIError.self) { try Arguments(["--\(spec.name)=1"], accepting: accepted) }
                #expect(error?.message == "option '--\(spec.name)' takes no value")
            }
        }
        let everyName = Set(CatalogCommandLine.commands.flatMap { $0.acceptedOptions.map(\.name) })
        for other in everyName.subtracting(documented.map(\.name)).sorted() {
            let error = #expect(throws: CLIError.self) { try Arguments(["--\(other)", "x"], accepting: accepted) }
            #expect(error?.message == "unknown option '--\(other)'")
        }
    }

    @Test func helpFitsInItsWidth() throws {
        for text in CatalogCommandLine.commands.map({ $0.help }) + [CatalogCommandLine.overview] {
            for line in text.split(separator: "\n") {
                #expect(line.count <= HelpFormatter.width, "too wide: \(line)")
                #expect(!line.hasSuffix(" "), "trailing space: \(line)")
            }
        }
    }
}

/// The parts of a help text the tests compare with the parser, read from the text itself.
struct HelpDocument {
    struct Row: Equatable {
        var name: String
        var takesValue: Bool
    }

    /// The rows of its OPTIONS table.
    var optionRows: [Row] = []
    /// The rows of the overview's GLOBAL OPTIONS.
    var globalRows: [Row] = []
    /// The names of the options its USAGE lines show.
    var usageOptions: [String] = []

    init(_ text: String) {
        var section = "USAGE"
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if section == "USAGE" { section = "" }
                continue
            }
            if line.hasSuffix(":") && !line.hasPrefix(" ") {
                section = String(line.dropLast())
                continue
            }
            switch section {
            case "USAGE":
                usageOptions += Self.optionNames(in: line)
            case "OPTIONS", "GLOBAL OPTIONS":
                guard line.hasPrefix("  --") else { continue }
                let synopsis = line.dropFirst(2).components(separatedBy: "   ")[0].split(separator: " ")
                let row = Row(name: String(synopsis[0].dropFirst(2)), takesValue: synopsis.count > 1)
                if section == "OPTIONS" { optionRows.append(row) } else { globalRows.append(row) }
            default:
                continue
            }
        }
    }

    static func optionNames(in line: Substring) -> [String] {
        line.split(separator: " ").compactMap { word in
            let name = word.drop(while: { $0 == "[" }).prefix(while: { $0 != "]" && $0 != "=" && $0 != "." })
            guard name.hasPrefix("--") else { return nil }
            return String(name.dropFirst(2))
        }
    }
}
