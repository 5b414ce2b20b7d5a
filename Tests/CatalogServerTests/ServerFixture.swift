import CatalogAuth
import CatalogDemo
import CatalogHTTP
import CatalogImport
import CatalogModel
import CatalogSQLite
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

    init(_ configure: (inout CatalogServerOptions) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-server-\(UUID().uuidString)")
        images = directory.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("test.sqlite").path
        let store = try SQLiteCatalogStore(path: path)
        defer { store.close() }
        for demo in DemoCatalogs.all {
            let data = Data(demo.source.utf8)
            let reader: any RecordSource =
                switch demo.format {
                case .xml: XMLRecordReader(data: data, sourceName: "demo", recordElement: demo.definition.recordElement)
                case .json: JSONRecordReader(data: data, sourceName: "demo", recordPath: demo.recordPath)
                }
            _ = try ImportPipeline.run(reader, into: store, definition: demo.definition, replace: true) { _ in }
        }
        usersPath = SQLiteUserStore.defaultPath(forCatalog: path)
        let users = try SQLiteUserStore(path: usersPath, migratingFrom: path)
        defer { users.close() }
        let authenticator = Authenticator()
        adminToken = try authenticator.addUser(name: "admin", isAdmin: true, password: nil, in: users).token
        userToken = try authenticator.addUser(name: "mari", isAdmin: false, password: nil, in: users).token
        otherToken = try authenticator.addUser(name: "jozsi", isAdmin: false, password: nil, in: users).token
        var options = CatalogServerOptions(databasePath: path)
        options.imagesDirectory = images.path
        options.maxUploadBytes = 1 << 20
        configure(&options)
        application = CatalogApplication(options: options, accessLog: nil, errorLog: { _ in })
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
