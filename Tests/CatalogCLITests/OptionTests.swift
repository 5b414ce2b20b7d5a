import Testing

@testable import CatalogCLI

/// The declaration layer in process: what a declared option reads as, and the usage errors users see.
@Suite struct OptionTests {
    static let limit = Option<Int?>("limit", value: "N", in: 1...200, help: "at most N results")
    static let port = Option<Int>("port", value: "N", in: 0...65535, default: 8080, help: "the port")
    static let items = Option<Int>(required: "items", value: "N", in: 1...10, help: "how many")
    static let catalog = Option<String>(required: "catalog", value: "ID", help: "the catalog")
    static let host = Option<String>("host", value: "ADDRESS", default: "127.0.0.1", help: "the address")
    static let section = Option<String?>("section", value: "LABEL", help: "only this section")
    static let category = Option<[String]>("category", value: "LABEL", help: "only this category")
    static let even = Option<Int?>("even", value: "N", help: "an even number") { (text: String) throws(CLIError) in
        guard let number = Int(text), number % 2 == 0 else { throw CLIError.usage("--even takes an even number") }
        return number
    }
    static let quiet = Flag("quiet", help: "no summary")
    static let declared: [any OptionDeclaration] = [limit, port, items, catalog, host, section, category, even, quiet]
    static let all = declared.map(\.spec)

    static func parse(_ arguments: String...) throws(CLIError) -> Arguments {
        try Arguments(arguments, accepting: all + CommonOptions.global.map(\.spec))
    }

    /// The message of the usage error `body` throws, nil when it throws none.
    static func usageError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CLIError {
            return error.status == 64 ? error.message : "status \(error.status): \(error.message)"
        } catch {
            return "not a CLIError: \(error)"
        }
    }

    @Test func absentOptionsGiveNilTheirDefaultOrAUsageError() throws {
        let arguments = try Self.parse()
        #expect(try arguments[Self.limit] == nil)
        #expect(try arguments[Self.port] == 8080)
        #expect(try arguments[Self.host] == "127.0.0.1")
        #expect(try arguments[Self.section] == nil)
        #expect(try arguments[Self.category] == [])
        #expect(try arguments[Self.even] == nil)
        #expect(!arguments[Self.quiet])
        #expect(Self.usageError { _ = try arguments[Self.catalog] } == "missing required option '--catalog'")
        #expect(Self.usageError { _ = try arguments[Self.items] } == "missing required option '--items'")
        let empty = try Self.parse("--catalog", "")
        #expect(Self.usageError { _ = try empty[Self.catalog] } == "missing required option '--catalog'")
    }

    @Test func givenOptionsAreReadTypedTheLastOneCounting() throws {
        let arguments = try Self.parse(
            "--limit", "5", "--limit=7", "--port", "0", "--catalog", "shop", "--category", "A", "q", "--category=B",
            "--quiet", "--even", "4", "--items", "10", "--", "--limit")
        #expect(try arguments[Self.limit] == 7)
        #expect(try arguments[Self.port] == 0)
        #expect(try arguments[Self.catalog] == "shop")
        #expect(try arguments[Self.category] == ["A", "B"])
        #expect(try arguments[Self.even] == 4)
        #expect(try arguments[Self.items] == 10)
        #expect(arguments[Self.quiet])
        #expect(arguments.positionals == ["q", "--limit"])
    }

    @Test func badValuesAreUsageErrorsInTheUsualWords() throws {
        #expect(
            Self.usageError { _ = try Self.parse("--port", "70000")[Self.port] }
                == "'--port' must be a whole number from 0 to 65535")
        #expect(
            Self.usageError { _ = try Self.parse("--limit", "many")[Self.limit] }
                == "'--limit' must be a whole number from 1 to 200")
        #expect(
            Self.usageError { _ = try Self.parse("--items", "")[Self.items] }
                == "'--items' must be a whole number from 1 to 10")
        #expect(Self.usageError { _ = try Self.parse("--even", "3")[Self.even] } == "--even takes an even number")
        #expect(Self.usageError { _ = try Self.parse("--quiet=yes") } == "option '--quiet' takes no value")
        #expect(Self.usageError { _ = try Self.parse("--limit") } == "option '--limit' needs a value")
        #expect(Self.usageError { _ = try Self.parse("--limt", "5") } == "unknown option '--limt'")
        #expect(Self.usageError { _ = try Self.parse("-q") } == "unknown option '-q'")
        #expect(try Self.parse("-h")[CommonOptions.help])
        #expect(try Self.parse("-")[Self.quiet] == false)
    }

    @Test func usageShowsRequiredRepeatableAndGroupedOptions() {
        let lines = HelpFormatter.usage(
            [
                Usage(
                    "QUERY", .option(Self.catalog), .option(Self.category), .option(Self.quiet),
                    .group(Self.limit, Self.port, Self.quiet)),
                Usage(.required(Self.section)),
            ], command: "catalog test")
        #expect(
            lines == [
                "USAGE: catalog test QUERY --catalog ID [--category LABEL]... [--quiet] [--limit N [--port N]",
                "                    [--quiet]]",
                "       catalog test --section LABEL",
            ])
    }

    @Test func tablesAlignWrapAndKeepADefaultWhole() {
        let rows = HelpFormatter.table([
            ("--a", "short", "1"),
            ("--longer VALUE", String(repeating: "word ", count: 16) + "end", "two words"),
            ("--b", "first line\nsecond line", nil),
        ])
        #expect(
            rows == [
                "  --a              short (default: 1)",
                "  --longer VALUE   word word word word word word word word word word word word word word word word",
                "                   end (default: two words)",
                "  --b              first line",
                "                   second line",
            ])
        let wrapped = HelpFormatter.wrap(String(repeating: "x", count: 15), default: "a b c", width: 20)
        #expect(wrapped == [String(repeating: "x", count: 15), "(default: a b c)"])
    }
}
