import CatalogAuth
import CatalogClient
import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogHTTP
import CatalogImport
import CatalogServer
import CatalogStorage
import Foundation
import Synchronization

/// A real `catalog serve` in process, on a loopback port: the demo catalogs (and optionally a
/// generated one), an administrator with a token and a user with a password.
final class LiveServer: @unchecked Sendable {
    // @unchecked: every stored property is a constant but the running server, which is behind a
    // Mutex; the server and application are Sendable, and the rest are values or URLs.
    let directory: URL
    let path: String
    let application: CatalogApplication
    private let configuration: ServerConfiguration
    private let running: Mutex<HTTPServer>
    let url: URL
    let adminToken: String
    let userToken: String
    static let userName = "mari"
    static let password = "túrós csusza"

    /// Starts a server with the demo catalogs and `generated` records in a catalog `big` (none for 0).
    init(generated: Int = 0, seed: UInt64 = 7) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("server.sqlite").path
        let database = try CatalogEngines.open(path)
        for demo in DemoCatalogs.all {
            try Self.importDemo(demo, into: database)
        }
        if generated > 0 { try Self.importGenerated(generated, seed: seed, into: database) }
        let authenticator = Authenticator()
        let store = try database.users()
        adminToken = try authenticator.addUser(name: "admin", isAdmin: true, password: nil, in: store).token
        userToken = try authenticator.addUser(name: Self.userName, isAdmin: false, password: Self.password, in: store)
            .token
        database.close()

        var engine = CatalogEngines.Options()
        engine.server = true
        var options = CatalogServerOptions(database: try CatalogEngines.open(path, options: engine))
        options.snapshotsDirectory = directory.appendingPathComponent("snapshots").path
        application = CatalogApplication(options: options, accessLog: nil, errorLog: Self.logErrors)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        application.configure(&configuration)
        let server = HTTPServer(configuration: configuration, responder: application.responder, log: Self.logErrors)
        let port = try server.start()
        configuration.port = port
        self.configuration = configuration
        running = Mutex(server)
        application.listening(on: "http://127.0.0.1:\(port)")
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Writes the server's error lines to standard error, so that an unexpected 500 in a test says
    /// what went wrong; its other lines are dropped.
    static let logErrors: @Sendable (String) -> Void = { line in
        guard line.hasPrefix("error") else { return }
        FileHandle.standardError.write(Data("live server: \(line)\n".utf8))
    }

    /// The HTTP server now listening (a new one after ``restart(between:)``).
    var server: HTTPServer { running.withLock { $0 } }

    /// Stops the HTTP server (every connection closes), runs `body` while nothing listens, and
    /// starts a new server on the same port with the same application and database.
    func restart(between body: () async throws -> Void) async throws {
        server.shutdown()
        try await body()
        let next = HTTPServer(configuration: configuration, responder: application.responder, log: Self.logErrors)
        try next.start()
        running.withLock { $0 = next }
    }

    /// A client of this server with a cache of its own.
    func client(token: String? = nil, timeout: TimeInterval = 30) -> CatalogClient {
        CatalogClient(
            baseURL: url, token: token,
            cache: .directory(directory.appendingPathComponent("client-\(UUID().uuidString)")), timeout: timeout)
    }

    /// Imports records into catalog `id` through a second handle, as `catalog import` would.
    func importRecords(_ records: [Record], into id: String, locale: String = "en") throws {
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        _ = try CatalogImporter.run(
            into: database, definition: CatalogDefinition(id: id, title: id, locale: locale), replace: true,
            collation: try ICUCollation(locale: locale),
            records: { add in
                for record in records { try add(record) }
                return nil
            })
    }

    /// Changes records through a second handle of the database, as `catalog put` would (the
    /// HTTP server need not be running).
    @discardableResult
    func edit(_ edits: [RecordEdit], in id: String, locale: String = "en") throws -> EditOutcome {
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        return try CatalogEditor.apply(edits, to: id, in: database, collation: try ICUCollation(locale: locale))
    }

    /// Removes every entry of the change log, as `catalog changes prune` would.
    /// An API key of the administrator for `catalogs` with `actions` and a record `filter`: its
    /// text, shown once.
    func addKey(catalogs: [String], actions: [KeyAction], filter: String? = nil) throws -> String {
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        return try Authenticator().addKey(
            name: "key-\(UUID().uuidString.prefix(8))", user: "admin", catalogs: catalogs, actions: actions,
            lifetime: nil, filter: filter, in: database.users()
        ).text
    }

    func pruneChangeLog() throws {
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        _ = try database.write { try $0.pruneChanges(before: "9999") }
    }

    deinit {
        server.shutdown()
        application.close()
        try? FileManager.default.removeItem(at: directory)
    }

    static func importDemo(_ demo: DemoCatalog, into database: any CatalogDatabase) throws {
        let data = Data(demo.source.utf8)
        let reader: any RecordSource =
            switch demo.format {
            case .xml: XMLRecordReader(data: data, sourceName: "demo", recordElement: demo.definition.recordElement)
            case .json: JSONRecordReader(data: data, sourceName: "demo", recordPath: demo.recordPath)
            }
        _ = try ImportPipeline.run(
            reader, into: database, definition: demo.definition, replace: true,
            collation: try ICUCollation(locale: demo.definition.locale)
        ) { _ in }
    }

    static func importGenerated(_ count: Int, seed: UInt64, into database: any CatalogDatabase) throws {
        let generator = CatalogGenerator(items: count, locale: "en", seed: seed)
        var definition = generator.definition
        definition.id = "big"
        _ = try CatalogImporter.run(
            into: database, definition: definition, replace: true, collation: try ICUCollation(locale: "en"),
            records: { add in
                try generator.forEachRecord { try add($0) }
                return nil
            })
    }
}
