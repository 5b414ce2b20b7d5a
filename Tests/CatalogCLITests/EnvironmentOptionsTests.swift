import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogCLI

/// `catalog serve` reads every option from the environment too (`CATALOG_PORT` for `--port`),
/// generically from the declarations, the command line winning.
@Suite struct EnvironmentOptionsTests {
    static let declared = ServeCommand.acceptedOptions

    static func parse(_ arguments: [String], _ environment: [String: String]) throws(CLIError) -> Arguments {
        var parsed = try Arguments(arguments, accepting: declared)
        try parsed.readEnvironment(environment, accepting: declared)
        return parsed
    }

    @Test func variablesAreTheFlagNamesInCapitals() {
        #expect(Arguments.environmentVariable(for: "port") == "CATALOG_PORT")
        #expect(Arguments.environmentVariable(for: "max-connections-per-ip") == "CATALOG_MAX_CONNECTIONS_PER_IP")
        #expect(Arguments.environmentVariable(for: "db") == "CATALOG_DB")
    }

    @Test func optionsComeFromTheEnvironmentAndTheCommandLineWins() throws {
        let environment = [
            "CATALOG_PORT": "9191", "CATALOG_HOST": "0.0.0.0", "CATALOG_DB": "/srv/catalog.sqlite",
            "CATALOG_THREADS": "3", "CATALOG_LOG_FORMAT": "json", "CATALOG_QUIET": "yes",
            "CATALOG_METRICS_ALLOW": "10.0.0.0/8, 192.0.2.7",
        ]
        let fromEnvironment = try Self.parse([], environment)
        #expect(try fromEnvironment[ServeCommand.port] == 9191)
        #expect(try fromEnvironment[ServeCommand.host] == "0.0.0.0")
        #expect(try fromEnvironment[CommonOptions.db] == "/srv/catalog.sqlite")
        #expect(try fromEnvironment[ServeCommand.threads] == 3)
        #expect("\(try fromEnvironment[ServeCommand.logFormat])" == "json")
        #expect(fromEnvironment[ServeCommand.quiet])
        #expect(try fromEnvironment[ServeCommand.metricsAllow].map(\.description) == ["10.0.0.0/8", "192.0.2.7/32"])

        let both = try Self.parse(
            ["--port", "8181", "--host=127.0.0.1", "--metrics-allow", "::1", "--log-format", "text"], environment)
        #expect(try both[ServeCommand.port] == 8181)
        #expect(try both[ServeCommand.host] == "127.0.0.1")
        #expect(try both[ServeCommand.metricsAllow].map(\.description) == ["::1/128"])
        #expect("\(try both[ServeCommand.logFormat])" == "text")
        // What the command line did not give still comes from the environment.
        #expect(try both[ServeCommand.threads] == 3)

        let neither = try Self.parse([], [:])
        #expect(try neither[ServeCommand.port] == 8080)
        #expect(!neither[ServeCommand.quiet])
    }

    @Test func trustedProxiesAndTheBodyDeadlineParseLikeTheirNeighbours() throws {
        let fromEnvironment = try Self.parse(
            [], ["CATALOG_TRUSTED_PROXY": "127.0.0.1/32,10.0.0.0/8", "CATALOG_BODY_TIMEOUT": "120"])
        #expect(
            try fromEnvironment[ServeCommand.trustedProxy].map(\.description) == ["127.0.0.1/32", "10.0.0.0/8"])
        #expect(try fromEnvironment[ServeCommand.bodyTimeout] == 120)
        let given = try Self.parse(["--trusted-proxy", "fd00::/8", "--trusted-proxy", "192.0.2.1"], [:])
        #expect(try given[ServeCommand.trustedProxy].map(\.description) == ["fd00::/8", "192.0.2.1/32"])
        let bad = try Self.parse(["--trusted-proxy", "proxy.example"], [:])
        #expect(
            OptionTests.usageError { _ = try bad[ServeCommand.trustedProxy] }
                == "--trusted-proxy: 'proxy.example' is not an IP address or a CIDR block")
    }

    @Test(arguments: [("1", true), ("true", true), ("YES", true), ("0", false), ("false", false), ("No", false)])
    func flagsTakeYesOrNo(_ text: String, _ given: Bool) throws {
        #expect(try Self.parse([], ["CATALOG_QUIET": text])[ServeCommand.quiet] == given)
        // A flag on the command line stays given whatever the variable says.
        #expect(try Self.parse(["--quiet"], ["CATALOG_QUIET": text])[ServeCommand.quiet])
    }

    @Test func aBadValueIsAnErrorNamingTheVariable() throws {
        #expect(
            OptionTests.usageError { _ = try Self.parse([], ["CATALOG_QUIET": "maybe"]) }
                == "CATALOG_QUIET must be 1, true, yes, 0, false or no, got 'maybe'")
        let port = try Self.parse([], ["CATALOG_PORT": "eighty"])
        #expect(
            OptionTests.usageError { _ = try port[ServeCommand.port] }
                == "CATALOG_PORT: '--port' must be a whole number from 0 to 65535")
        let format = try Self.parse([], ["CATALOG_LOG_FORMAT": "xml"])
        #expect(
            OptionTests.usageError { _ = try format[ServeCommand.logFormat] }?.hasPrefix("CATALOG_LOG_FORMAT: ") == true
        )
        // The same value on the command line names the option, not the variable.
        let flag = try Self.parse(["--port", "eighty"], [:])
        #expect(
            OptionTests.usageError { _ = try flag[ServeCommand.port] }
                == "'--port' must be a whole number from 0 to 65535")
    }

    @Test func theBinaryReadsTheEnvironmentAndItsHelpSaysSo() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let help = try cli.run(["serve", "--help"], useDatabase: false)
        #expect(help.stdout.contains("ENVIRONMENT:"))
        #expect(help.stdout.contains("CATALOG_PORT=8080"))

        #expect(try cli.run(["demo"]).status == 0)
        // `--port 0` on the command line wins: the variable's value, which is no port, is never read.
        let server = try ServeProcess(
            database: cli.database,
            environment: ["CATALOG_PORT": "not-a-port", "CATALOG_LOG_FORMAT": "json", "CATALOG_QUIET": "no"],
            log: cli.directory.appendingPathComponent("serve.log"))
        defer { server.stop() }
        #expect(try server.client.request("GET", "/api/v1/catalogs").status == 200)
        let line = try #require(
            waitUntilValue { try String(contentsOf: server.log, encoding: .utf8).split(separator: "\n").first })
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["route"] as? String == "/api/v1/catalogs")
    }

    /// The first non-nil value of `body`, asked until it has one (or nil after two minutes).
    func waitUntilValue<T>(_ body: () throws -> T?) rethrows -> T? {
        var value: T?
        try waitUntil {
            value = try body()
            return value != nil
        }
        return value
    }
}
