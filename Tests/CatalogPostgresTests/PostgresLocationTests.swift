import CatalogStorage
import Testing

@testable import CatalogPostgres

/// Database URLs: what libpq gets, and what messages show.
@Suite struct PostgresLocationTests {
    @Test(arguments: [
        ("postgres://ada:s3cret@db.example:5432/catalog", "postgres://ada:***@db.example:5432/catalog"),
        (
            "postgresql://ada:p%40ss@db.example/catalog?sslmode=require",
            "postgresql://ada:***@db.example/catalog?sslmode=require"
        ),
        (
            "postgres://ada@/catalog?host=/run/pg&password=s3cret&port=5433",
            "postgres://ada@/catalog?host=/run/pg&password=***&port=5433"
        ),
        ("postgres://db.example/catalog", "postgres://db.example/catalog"),
        ("postgres://ada:s3cret@db.example", "postgres://ada:***@db.example"),
    ])
    func thePasswordNeverShows(url: String, redacted: String) {
        let location = PostgresLocation(url)
        #expect(location.url == url, "libpq gets the URL as given")
        #expect(location.redacted == redacted)
        #expect(!location.description.contains("s3cret"))
        #expect(location.problem == nil)
    }

    @Test(arguments: [
        "postgres://u:pw@h:5432/db?options=x@y", "postgres://h:5432/db?options=x@y", "postgres://u@h/db?password=a@b",
        "postgres://u:p%40ss@h/db",
    ])
    func wellEncodedURLsHaveNoProblem(url: String) {
        #expect(PostgresLocation(url).problem == nil)
    }

    @Test func messagesLoseThePasswordInEitherSpelling() {
        let location = PostgresLocation("postgres://ada:p%40ss%2Fw@db.example/catalog")
        #expect(location.scrubbed("failed for p%40ss%2Fw and p@ss/w") == "failed for *** and ***")
    }

    /// A password with an unencoded `@` or `/` would make libpq read part of it as the host and
    /// quote it in its error: such a URL is refused before libpq sees it, naming no part of it.
    @Test(arguments: [
        "postgres://u:p@ss/w@127.0.0.1:1/db", "postgres://u:pa/ss@127.0.0.1:1/db", "postgres://u:pa ss@127.0.0.1:1/db",
        "postgresql://u:pa?ss@127.0.0.1:1/db",
    ])
    func badlyEncodedPasswordsAreRefusedWithoutShowingThem(url: String) throws {
        let location = PostgresLocation(url)
        let problem = try #require(location.problem)
        #expect(problem.contains("percent-encoded"))
        let error = #expect(throws: StorageError.self) { try PostgresConnection(location) }
        let text = "\(error.map(String.init(describing:)) ?? "") \(location.redacted)"
        for fragment in ["p@ss/w", "pa/ss", "pa ss", "ss/w", "pa?ss"] where url.contains(fragment) {
            #expect(!text.contains(fragment), "\(text)")
        }
        #expect(text.contains("u:***@"))
    }

    @Test func onlyPostgresURLsArePostgres() {
        #expect(PostgresLocation.isPostgres("postgres://x"))
        #expect(PostgresLocation.isPostgres("postgresql://x"))
        #expect(!PostgresLocation.isPostgres("catalog.sqlite"))
        #expect(!PostgresLocation.isPostgres("/tmp/postgres://x"))
    }

    @Test func libpqMessagesBecomeOneLine() {
        #expect(
            PostgresConnection.oneLine(
                "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running?\n")
                == "connection to server at \"127.0.0.1\", port 1 failed: Connection refused. Is the server running?")
        let message = """
            connection to server on socket "/tmp/.s.PGSQL.5433" failed: FATAL:  password authentication failed for user "ada"

            """
        #expect(
            PostgresConnection.oneLine(message)
                == "connection to server on socket \"/tmp/.s.PGSQL.5433\" failed: password authentication failed for user \"ada\""
        )
    }
}

/// The binary COPY stream.
@Suite struct CopyEncoderTests {
    @Test func rowsAreFramedAsPostgreSQLReadsThem() {
        var rows = CopyEncoder()
        rows.beginRow(fields: 4)
        rows.int4(1)
        rows.text("é")
        rows.null()
        rows.bytea([0, 255])
        let stream = rows.finish()
        #expect(Array(stream.prefix(11)) == Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
        let body = Array(stream.dropFirst(19).dropLast(2))
        #expect(
            body == [0, 4] + [0, 0, 0, 4, 0, 0, 0, 1] + [0, 0, 0, 2, 0xC3, 0xA9] + [0xFF, 0xFF, 0xFF, 0xFF]
                + [0, 0, 0, 2, 0, 255])
        #expect(Array(stream.suffix(2)) == [0xFF, 0xFF])
        #expect(rows.rows == 1)
    }

    @Test func parametersAreBinary() {
        var buffer: [UInt8] = []
        #expect(PostgresValue.int4Array([3, -1]).encode(into: &buffer))
        #expect(
            buffer == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 23, 0, 0, 0, 2, 0, 0, 0, 1]
                + [0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF])
        buffer = []
        #expect(!PostgresValue.null(.text).encode(into: &buffer))
        #expect(buffer.isEmpty)
        #expect(PostgresValue.int8(-2).encode(into: &buffer))
        #expect(buffer == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
    }
}
