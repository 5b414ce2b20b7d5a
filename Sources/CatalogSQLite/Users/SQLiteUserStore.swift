import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Accounts, API tokens, web sessions, favorites and roles in catalogs in a SQLite file of their own
/// (`catalog-users.sqlite` beside `catalog.sqlite`), so that whoever copies or serves the catalog
/// file (with Datasette, say) never publishes password or token hashes, and so that sign-ins and
/// favorites never wait for a catalog import holding the catalog file's write lock.
///
/// Reads work on a read-only store, so a server thread checks credentials on its own read-only
/// connection; writes need a store opened for writing and fail with a clear ``StorageError``
/// otherwise. Not Sendable: one store per thread.
///
/// ```swift
/// let users = try SQLiteUserStore(
///     path: SQLiteUserStore.defaultPath(forCatalog: "catalog.sqlite"), migratingFrom: "catalog.sqlite")
/// defer { users.close() }
/// let ada = try users.user(named: "ada")
/// ```
///
/// Opened for writing with `migratingFrom`, it first moves accounts that an older version kept
/// in the catalog file into its own file (see ``migrateAccounts(from:)``).
public final class SQLiteUserStore: UserStore {
    let connection: Connection
    /// The accounts file.
    public let path: String
    /// Whether the store was opened without write access.
    public let isReadOnly: Bool

    /// The longest item id a favorite may name, in UTF-8 bytes.
    public static let maxFavoriteItemIDBytes = 1024

    /// The accounts file that goes with a catalog file: `catalog.sqlite` → `catalog-users.sqlite`
    /// in the same folder (`shop.db` → `shop-users.sqlite`).
    public static func defaultPath(forCatalog catalogPath: String) -> String {
        let slash = catalogPath.lastIndex(of: "/")
        let folder = slash.map { catalogPath[...$0] } ?? ""
        var stem = slash.map { catalogPath[catalogPath.index(after: $0)...] } ?? catalogPath[...]
        for suffix in [".sqlite", ".sqlite3", ".db"] where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem = stem.dropLast(suffix.count)
            break
        }
        return folder + stem + "-users.sqlite"
    }

    /// Opens (and, unless read-only, creates, migrates and fills from the catalog file) the
    /// accounts file at `path`.
    ///
    /// - Parameters:
    ///   - path: the accounts file.
    ///   - readOnly: open without write access; the file must exist and be up to date.
    ///   - catalogPath: the catalog file whose accounts (from an older version) move here; nil
    ///     for none. Ignored when read-only or when the file does not exist.
    /// - Throws: ``StorageError`` `.cannotOpen` for a missing, foreign or newer file;
    ///   `.constraint` when the catalog file holds accounts that clash with this file's.
    public init(path: String, readOnly: Bool = false, migratingFrom catalogPath: String? = nil) throws(StorageError) {
        self.path = path
        isReadOnly = readOnly
        connection = try Connection(path: path, mode: readOnly ? .readOnly : .readWriteCreate)
        do {
            try configure(readOnly: readOnly)
            if !readOnly, let catalogPath, FileManager.default.fileExists(atPath: catalogPath) {
                try migrateAccounts(from: catalogPath)
            }
        } catch let error as StorageError {
            connection.close()
            throw error
        } catch {
            connection.close()
            throw StorageError(.engine, "\(error)")
        }
    }

    private func configure(readOnly: Bool) throws {
        try connection.execute("PRAGMA foreign_keys = ON; PRAGMA cache_size = -2048")
        let applicationID = try connection.cached("PRAGMA application_id").scalarInt() ?? 0
        let tableCount = try connection.cached("SELECT count(*) FROM sqlite_schema").scalarInt() ?? 0
        if applicationID != UserSchema.applicationID && (applicationID != 0 || tableCount > 0) {
            throw StorageError(.cannotOpen, "\(path) is not an accounts database")
        }
        let version = try connection.cached("PRAGMA user_version").scalarInt() ?? 0
        if version > UserSchema.currentVersion {
            throw StorageError(
                .cannotOpen,
                "\(path) has schema version \(version), newer than this program's \(UserSchema.currentVersion); "
                    + "upgrade catalog")
        }
        if readOnly {
            if version != UserSchema.currentVersion {
                throw StorageError(
                    .cannotOpen,
                    "\(path) has schema version \(version), this program needs \(UserSchema.currentVersion)")
            }
            return
        }
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        if applicationID == 0 { try connection.execute("PRAGMA application_id = \(UserSchema.applicationID)") }
        for index in version..<UserSchema.currentVersion {
            try connection.transaction {
                try connection.execute(UserSchema.migrations[index])
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// Closes the file. The store must not be used afterwards.
    public func close() {
        connection.close()
    }

    private static let userColumns = "users.id, users.name, users.is_admin, users.created_at"

    /// Decodes the first four columns, selected with ``userColumns``.
    private func user(from row: Statement) -> User {
        User(id: row.int64(0), name: row.text(1), isAdmin: row.int(2) != 0, createdAt: row.text(3))
    }

    /// Runs `body` in a write transaction, or fails clearly on a read-only store.
    func write<T>(_ action: String, _ body: () throws -> T) throws -> T {
        guard !isReadOnly else {
            throw StorageError(.engine, "cannot \(action): \(path) is open read-only")
        }
        return try connection.transaction(body)
    }

    // MARK: - Accounts

    public func addUser(
        name: String, isAdmin: Bool, passwordHash: String?, tokenSelector: String, tokenHash: [UInt8]
    ) throws -> User {
        guard User.isValidName(name) else {
            throw StorageError(
                .invalidArgument, "invalid user name: use 1 to 64 letters, digits, '.', '-', '_' or '@'")
        }
        return try write("add a user") {
            if let existing = try user(named: name) {
                throw StorageError(.constraint, "a user named \"\(existing.name)\" already exists")
            }
            let statement = try connection.cached(
                "INSERT INTO users (name, is_admin, password_hash, token_selector, token_hash) VALUES (?, ?, ?, ?, ?) "
                    + "RETURNING \(Self.userColumns)")
            try statement.bind(name, isAdmin ? 1 : 0, passwordHash, tokenSelector, tokenHash)
            defer { statement.finish() }
            guard try statement.step() else { throw StorageError(.engine, "adding user \"\(name)\" returned no row") }
            return user(from: statement)
        }
    }

    public func user(named name: String) throws -> User? {
        let statement = try connection.cached("SELECT \(Self.userColumns) FROM users WHERE name = ?")
        try statement.bind(name)
        defer { statement.finish() }
        return try statement.step() ? user(from: statement) : nil
    }

    public func users() throws -> [User] {
        let statement = try connection.cached("SELECT \(Self.userColumns) FROM users ORDER BY name, id")
        var result: [User] = []
        try statement.forEachRow { result.append(user(from: $0)) }
        return result
    }

    public func removeUser(named name: String) throws -> Bool {
        try write("remove a user") {
            // Sessions, favorites and roles go with the user (ON DELETE CASCADE).
            try connection.cached("DELETE FROM users WHERE name = ?").bind(name).run()
            return connection.changes > 0
        }
    }

    // MARK: - Passwords

    public func setPasswordHash(_ hash: String?, forUser name: String) throws {
        try write("set a password") {
            try connection.cached("UPDATE users SET password_hash = ? WHERE name = ?").bind(hash, name).run()
            guard connection.changes > 0 else { throw StorageError(.userNotFound, "no user named \"\(name)\"") }
            try connection.cached("DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE name = ?)")
                .bind(name).run()
        }
    }

    public func passwordHash(forUser name: String) throws -> (user: User, hash: String)? {
        let statement = try connection.cached(
            "SELECT \(Self.userColumns), password_hash FROM users WHERE name = ? AND password_hash IS NOT NULL")
        try statement.bind(name)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        return (user(from: statement), statement.text(4))
    }

    // MARK: - API tokens

    public func replaceToken(forUser name: String, selector: String, hash: [UInt8]) throws {
        try write("replace a token") {
            try connection.cached("UPDATE users SET token_selector = ?, token_hash = ? WHERE name = ?")
                .bind(selector, hash, name).run()
            guard connection.changes > 0 else { throw StorageError(.userNotFound, "no user named \"\(name)\"") }
        }
    }

    public func tokenCredential(selector: String) throws -> (user: User, hash: [UInt8])? {
        let statement = try connection.cached(
            "SELECT \(Self.userColumns), token_hash FROM users WHERE token_selector = ? AND token_hash IS NOT NULL")
        try statement.bind(selector)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        return (user(from: statement), statement.blob(4))
    }

    // MARK: - Web sessions

    public func createSession(userID: Int64, selector: String, hash: [UInt8], expires: String) throws {
        try write("start a session") {
            try requireUser(id: userID)
            try connection.cached("INSERT INTO sessions (selector, user_id, hash, expires) VALUES (?, ?, ?, ?)")
                .bind(selector, userID, hash, expires).run()
        }
    }

    public func sessionCredential(selector: String) throws -> (user: User, hash: [UInt8], expires: String)? {
        let statement = try connection.cached(
            "SELECT \(Self.userColumns), sessions.hash, sessions.expires FROM sessions "
                + "JOIN users ON users.id = sessions.user_id WHERE sessions.selector = ?")
        try statement.bind(selector)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        return (user(from: statement), statement.blob(4), statement.text(5))
    }

    public func deleteSession(selector: String) throws {
        try write("end a session") {
            try connection.cached("DELETE FROM sessions WHERE selector = ?").bind(selector).run()
        }
    }

    public func deleteExpiredSessions(now: String) throws {
        try write("remove expired sessions") {
            try connection.cached("DELETE FROM sessions WHERE expires <= ?").bind(now).run()
        }
    }

    // MARK: - Favorites

    public func favorites(ofUser id: Int64) throws -> [Favorite] {
        let statement = try connection.cached(
            "SELECT catalog_id, item_id, added_at FROM favorites WHERE user_id = ? ORDER BY seq DESC")
        try statement.bind(id)
        var result: [Favorite] = []
        try statement.forEachRow { row in
            result.append(Favorite(catalog: row.text(0), item: row.text(1), added: row.text(2)))
        }
        return result
    }

    public func addFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        guard CatalogDefinition.isValidID(catalog) else {
            throw StorageError(.invalidArgument, "invalid catalog id for a favorite")
        }
        guard !item.isEmpty, item.utf8.count <= Self.maxFavoriteItemIDBytes else {
            throw StorageError(
                .invalidArgument, "a favorite's item id must be 1 to \(Self.maxFavoriteItemIDBytes) bytes long")
        }
        return try write("add a favorite") {
            try requireUser(id: userID)
            try connection.cached(
                """
                INSERT INTO favorites (user_id, catalog_id, item_id, seq)
                VALUES (?1, ?2, ?3, (SELECT coalesce(max(seq), 0) + 1 FROM favorites WHERE user_id = ?1))
                ON CONFLICT (user_id, catalog_id, item_id) DO NOTHING
                """
            ).bind(userID, catalog, item).run()
            return connection.changes > 0
        }
    }

    public func removeFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        try write("remove a favorite") {
            try connection.cached("DELETE FROM favorites WHERE user_id = ? AND catalog_id = ? AND item_id = ?")
                .bind(userID, catalog, item).run()
            return connection.changes > 0
        }
    }

    // MARK: - Roles in catalogs

    public func grant(user name: String, catalog: String, role: CatalogRole) throws -> CatalogRole? {
        guard CatalogDefinition.isValidID(catalog) else {
            throw StorageError(.invalidArgument, "invalid catalog id: use 1 to 64 letters, digits, '-' or '_'")
        }
        return try write("give a role") {
            guard let user = try user(named: name) else {
                throw StorageError(.userNotFound, "no user named \"\(name.prefix(80))\"")
            }
            let previous = try currentRole(ofUser: user.id, in: catalog)
            try connection.cached(
                "INSERT INTO grants (user_id, catalog_id, role) VALUES (?, ?, ?) "
                    + "ON CONFLICT (user_id, catalog_id) DO UPDATE SET role = excluded.role"
            ).bind(user.id, catalog, role.rawValue).run()
            return previous
        }
    }

    public func revoke(user name: String, catalog: String) throws -> Bool {
        try write("take a role away") {
            try connection.cached(
                "DELETE FROM grants WHERE catalog_id = ? AND user_id = (SELECT id FROM users WHERE name = ?)"
            ).bind(catalog, name).run()
            return connection.changes > 0
        }
    }

    public func roles(ofUser id: Int64) throws -> [String: CatalogRole] {
        let statement = try connection.cached("SELECT catalog_id, role FROM grants WHERE user_id = ?")
        try statement.bind(id)
        var roles: [String: CatalogRole] = [:]
        try statement.forEachRow { row in
            if let role = CatalogRole(rawValue: row.text(1)) { roles[row.text(0)] = role }
        }
        return roles
    }

    public func members(ofCatalog id: String) throws -> [CatalogMember] {
        let statement = try connection.cached(
            "SELECT users.name, grants.role FROM grants JOIN users ON users.id = grants.user_id "
                + "WHERE grants.catalog_id = ? ORDER BY users.name, users.id")
        try statement.bind(id)
        var members: [CatalogMember] = []
        try statement.forEachRow { row in
            if let role = CatalogRole(rawValue: row.text(1)) {
                members.append(CatalogMember(user: row.text(0), role: role))
            }
        }
        return members
    }

    public func removeCatalog(_ id: String) throws {
        try write("forget a catalog") {
            try connection.cached("DELETE FROM grants WHERE catalog_id = ?").bind(id).run()
            try connection.cached("DELETE FROM favorites WHERE catalog_id = ?").bind(id).run()
        }
    }

    /// The user's role in `catalog`, or nil.
    private func currentRole(ofUser id: Int64, in catalog: String) throws -> CatalogRole? {
        let statement = try connection.cached("SELECT role FROM grants WHERE user_id = ? AND catalog_id = ?")
        try statement.bind(id, catalog)
        defer { statement.finish() }
        return try statement.step() ? CatalogRole(rawValue: statement.text(0)) : nil
    }

    // MARK: - Copying

    public func accounts() throws -> [StoredAccount] {
        let statement = try connection.cached(
            "SELECT \(Self.userColumns), password_hash, token_selector, token_hash FROM users ORDER BY name, id")
        var accounts: [StoredAccount] = []
        try statement.forEachRow { row in
            accounts.append(
                StoredAccount(
                    user: user(from: row), passwordHash: row.optionalText(4),
                    token: row.optionalText(5).map { ($0, row.blob(6)) }, sessions: [], favorites: []))
        }
        for index in accounts.indices {
            let sessions = try connection.cached(
                "SELECT selector, hash, expires FROM sessions WHERE user_id = ? ORDER BY selector")
            try sessions.bind(accounts[index].user.id)
            try sessions.forEachRow { row in
                accounts[index].sessions.append(
                    StoredSession(selector: row.text(0), hash: row.blob(1), expires: row.text(2)))
            }
            accounts[index].favorites = try favorites(ofUser: accounts[index].user.id)
            accounts[index].roles = try roles(ofUser: accounts[index].user.id)
        }
        return accounts
    }

    public func restore(_ account: StoredAccount) throws -> User {
        let name = account.user.name
        guard User.isValidName(name) else {
            throw StorageError(.invalidArgument, "invalid user name \"\(name.prefix(80))\"")
        }
        return try write("restore a user") {
            // Sessions, favorites and roles of an account of the same name go with it (ON DELETE CASCADE).
            try connection.cached("DELETE FROM users WHERE name = ?").bind(name).run()
            let statement = try connection.cached(
                "INSERT INTO users (name, is_admin, password_hash, token_selector, token_hash, created_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?) RETURNING \(Self.userColumns)")
            try statement.bind(
                name, account.user.isAdmin ? 1 : 0, account.passwordHash, account.token?.selector, account.token?.hash,
                account.user.createdAt)
            guard try statement.step() else {
                throw StorageError(.engine, "restoring user \"\(name)\" returned no row")
            }
            let user = user(from: statement)
            statement.finish()
            for session in account.sessions {
                try connection.cached("INSERT INTO sessions (selector, user_id, hash, expires) VALUES (?, ?, ?, ?)")
                    .bind(session.selector, user.id, session.hash, session.expires).run()
            }
            for (offset, favorite) in account.favorites.enumerated() {
                try connection.cached(
                    "INSERT INTO favorites (user_id, catalog_id, item_id, added_at, seq) VALUES (?, ?, ?, ?, ?)"
                ).bind(user.id, favorite.catalog, favorite.item, favorite.added, account.favorites.count - offset).run()
            }
            for (catalog, role) in account.roles.sorted(by: { $0.key < $1.key }) {
                guard CatalogDefinition.isValidID(catalog) else {
                    throw StorageError(
                        .invalidArgument, "invalid catalog id \"\(catalog.prefix(80))\" in a role of \"\(name)\"")
                }
                try connection.cached("INSERT INTO grants (user_id, catalog_id, role) VALUES (?, ?, ?)")
                    .bind(user.id, catalog, role.rawValue).run()
            }
            return user
        }
    }

    /// Throws `.userNotFound` unless user `id` exists.
    private func requireUser(id: Int64) throws {
        let statement = try connection.cached("SELECT 1 FROM users WHERE id = ?")
        try statement.bind(id)
        guard try statement.scalarInt() != nil else {
            throw StorageError(.userNotFound, "no user with id \(id)")
        }
    }
}
