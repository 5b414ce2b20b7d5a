import CatalogAuth
import CatalogDemo
import CatalogHTTP
import CatalogImport
import CatalogModel
import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogSQLite
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// A database with the three demo catalogs and two users, and the application on top of it,
/// called in process (no sockets) unless a test starts a live server.
final class ServerFixture {
    let directory: URL
    let path: String
    /// The accounts file beside the catalog file.
    let usersPath: String
    let images: URL
    let application: CatalogApplication
    let adminToken: String
    let userToken: String
    let otherToken: String

    /// Imports the three demo catalogs (cookbook, products, sequencers) into `database`.
    static func importDemos(into database: any CatalogDatabase) throws {
        for demo in DemoCatalogs.all {
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
    }

    init(accessLog: AccessLog? = nil, _ configure: (inout CatalogServerOptions) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-server-\(UUID().uuidString)")
        images = directory.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("test.sqlite").path
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        try Self.importDemos(into: database)
        usersPath = SQLiteUserStore.defaultPath(forCatalog: path)
        let store = try database.users()
        let authenticator = Authenticator()
        adminToken = try authenticator.addUser(name: "admin", isAdmin: true, password: nil, in: store).token
        userToken = try authenticator.addUser(name: "mari", isAdmin: false, password: nil, in: store).token
        otherToken = try authenticator.addUser(name: "jozsi", isAdmin: false, password: nil, in: store).token
        var engine = CatalogEngines.Options()
        engine.server = true
        var options = CatalogServerOptions(database: try CatalogEngines.open(path, options: engine))
        options.imagesDirectory = images.path
        options.maxUploadBytes = 1 << 20
        configure(&options)
        application = CatalogApplication(options: options, accessLog: accessLog, errorLog: { _ in })
    }

    /// Runs `body` with a second handle on the database, as another process would have.
    func elsewhere<T>(_ body: (any CatalogDatabase) throws -> T) throws -> T {
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        return try body(database)
    }

    /// Imports records through a second handle, as `catalog import` would while the server runs.
    func importElsewhere(_ definition: CatalogDefinition, _ records: [Record]) throws {
        try elsewhere { database in
            _ = try CatalogImporter.run(
                into: database, definition: definition, replace: true,
                collation: try ICUCollation(locale: definition.locale),
                records: { add in
                    for record in records { try add(record) }
                    return nil
                })
        }
    }

    deinit {
        application.close()
        try? FileManager.default.removeItem(at: directory)
    }

    struct Reply {
        var response: Response
        var status: Int { response.status.rawValue }
        var body: [UInt8] { response.bytes ?? [] }
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
        var headers: HTTPHeaders { response.headers }
    }

    /// Sends a GET request through the whole middleware chain, in process.
    func request(_ target: String, headers: [(String, String)] = [], token: String? = nil) throws -> Reply {
        try request(.get, target, headers: headers, token: token)
    }

    /// Sends a request through the whole middleware chain, in process.
    func request(
        _ method: HTTPMethod, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        token: String? = nil
    ) throws -> Reply {
        // The server answers a target that does not decode with 400 before any route runs.
        guard var request = Request(method: method, target: target, headers: HTTPHeaders(headers), body: body) else {
            return Reply(response: Response(status: .badRequest))
        }
        if let token { request.headers["Authorization"] = "Bearer \(token)" }
        return Reply(response: try application.responder.respond(to: request, context: RequestContext()))
    }
}
