import Foundation
import Testing

/// `catalog audit`: what the command line records of accounts, roles and catalogs, read back.
@Suite struct AuditCommandTests {
    @Test func accountRoleAndCatalogChangesAreRecordedAndRead() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let steps: [([String], String?)] = [
            (["user", "add", "ada", "--admin"], nil),
            (["user", "add", "mari"], nil),
            (["user", "token", "mari"], nil),
            (["user", "password", "mari"], "new password\n"),
            (["create", "pantry", "--title", "Pantry"], nil),
            (["set-catalog", "pantry", "--title", "Larder"], nil),
            (["user", "grant", "mari", "--catalog", "pantry", "--role", "editor"], nil),
            (["user", "grant", "mari", "--catalog", "pantry", "--role", "owner"], nil),
            (["user", "revoke", "mari", "--catalog", "pantry"], nil),
            (["delete", "pantry", "--yes"], nil),
            (["user", "remove", "mari"], nil),
        ]
        for (arguments, input) in steps {
            let result = try cli.run(arguments, input: input)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("audit"), "\(arguments): \(result.stderr)")
        }

        let json = try cli.run(["audit", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        struct Body: Decodable {
            struct Event: Decodable {
                var id: Int64
                var kind: String
                var actor: String?
                var address: String?
                var catalog: String?
                var target: String?
                var detail: String?
            }
            var events: [Event]
        }
        let events = try JSONDecoder().decode(Body.self, from: Data(json.stdout.utf8)).events
        #expect(
            events.map(\.kind) == [
                "user-added", "user-added", "token-reset", "password-changed", "catalog-created", "catalog-changed",
                "role-granted", "role-granted", "role-revoked", "catalog-deleted", "user-removed",
            ])
        #expect(events.map(\.id) == events.map(\.id).sorted(), "newest last")
        #expect(events.allSatisfy { $0.actor == nil && $0.address == nil }, "the command line is no one's request")
        #expect(events[0].detail == "admin" && events[1].detail == "user")
        #expect(events[6...8].map(\.detail) == ["editor", "owner (was editor)", "owner"])
        #expect(events[6...8].allSatisfy { $0.catalog == "pantry" && $0.target == "mari" })

        // Text columns, filtered by kind and user, the newest N.
        let roles = try cli.run(["audit", "--kind", "role-granted", "--kind", "role-revoked", "--user", "MARI"])
        #expect(roles.status == 0)
        let lines = roles.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(lines.map { String($0[2]) } == ["role-granted", "role-granted", "role-revoked"])
        #expect(lines.allSatisfy { $0.count == 9 && $0[3] == "-" && $0[6] == "pantry" && $0[7] == "mari" })
        let newest = try cli.run(["audit", "--limit", "2"])
        #expect(
            newest.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[2]) } == [
                "catalog-deleted", "user-removed",
            ])
        #expect(try cli.run(["audit", "--since", "2999-01-01"]).stdout.isEmpty)
        #expect(try cli.run(["audit", "--since", "1h"]).stdout.split(separator: "\n").count == events.count)
    }

    @Test(arguments: [
        ["audit", "--kind", "nope"], ["audit", "--since", "yesterday"], ["audit", "--limit", "0"],
        ["audit", "extra"],
    ])
    func badArgumentsAreUsageErrors(arguments: [String]) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("catalog audit: error:"))
    }
}
