import CatalogModel
import CatalogStorage

/// Accounts, API tokens, web sessions, favorites and roles in catalogs in the `users`,
/// `sessions`, `favorites` (schema version 2) and `grants` (version 3) tables, with the SQLite
/// engine's behaviour: names unique ignoring ASCII case (`users.name_key`), favorites newest
/// first, members ordered by name.
///
/// Reads use the calling thread's reading connection: outside a ``PostgresDatabase/read(_:)``
/// every statement sees the newest data (what another server wrote a moment ago is found at
/// once); inside one, the read's snapshot. Writes go through the database's account connection,
/// one transaction each, which bumps the data version like every write.
public final class PostgresUserStore: UserStore {
    private let reads: () throws -> PostgresConnection
    private let writes: ((PostgresConnection) throws -> Void) throws -> Void
    /// Runs one statement on the account connection outside a transaction of ``writes``: the audit
    /// log's, which must not bump the data version (readers' caches stay valid).
    let quietly: ((PostgresConnection) throws -> Void) throws -> Void
    private var writing: PostgresConnection?

    /// The connection statements run on: the write connection inside ``write(_:_:)``, else the
    /// thread's reading connection.
    var connection: PostgresConnection {
        get throws { try writing ?? reads() }
    }

    /// The longest item id a favorite may name, in UTF-8 bytes (as the SQLite engine).
    public static let maxFavoriteItemIDBytes = 1024

    static let userColumns = "users.id, users.name, users.is_admin, users.created_at"
    /// A name as `users.name_key` holds it.
    static let nameKey =
        "translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"

    /// A store reading on the connection `reads` gives and writing through `writes`, which runs
    /// its argument in a write transaction, or `quietly`, which runs it on the same connection
    /// without one.
    init(
        reads: @escaping () throws -> PostgresConnection,
        writes: @escaping ((PostgresConnection) throws -> Void) throws -> Void,
        quietly: @escaping ((PostgresConnection) throws -> Void) throws -> Void
    ) {
        self.reads = reads
        self.writes = writes
        self.quietly = quietly
    }

    /// Runs a lookup on the connection statements run on.
    private func lookup<T>(_ body: (PostgresConnection) throws -> T?) throws -> T? {
        try body(connection)
    }

    /// Decodes the first four columns, selected with ``userColumns``.
    static func user(_ rows: PostgresResult, _ row: Int = 0) -> User {
        User(id: rows.int64(row, 0), name: rows.text(row, 1), isAdmin: rows.bool(row, 2), createdAt: rows.text(row, 3))
    }

    /// Runs `body` in a write transaction on the account connection.
    @discardableResult
    func write<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var value: T?
            try writes { writer in
                writing = writer
                defer { writing = nil }
                value = try body()
            }
            guard let value else { throw StorageError(.engine, "the write returned nothing") }
            return value
        }
    }

    // MARK: - Accounts

    public func addUser(
        name: String, isAdmin: Bool, passwordHash: String?, tokenSelector: String, tokenHash: [UInt8]
    ) throws -> User {
        guard User.isValidName(name) else {
            throw StorageError(
                .invalidArgument, "invalid user name: use 1 to 64 letters, digits, '.', '-', '_' or '@'")
        }
        return try write {
            if let existing = try user(named: name) {
                throw StorageError(.constraint, "a user named \"\(existing.name)\" already exists")
            }
            do {
                let rows = try connection.query(
                    "INSERT INTO users (name, is_admin, password_hash, token_selector, token_hash) "
                        + "VALUES ($1, $2, $3, $4, $5) RETURNING \(Self.userColumns)",
                    [.text(name), .bool(isAdmin), .text(passwordHash), .text(tokenSelector), .bytea(tokenHash)])
                return Self.user(rows)
            } catch let error as StorageError where error.engineCode == "23505" {
                // Another server added the same name at the same moment.
                throw StorageError(.constraint, "a user named \"\(name)\" already exists", engineCode: "23505")
            }
        }
    }

    public func user(named name: String) throws -> User? {
        guard User.isValidName(name) else { return nil }
        return try lookup { connection in
            let rows = try connection.query(
                "SELECT \(Self.userColumns) FROM users WHERE name_key = \(Self.nameKey)", [.text(name)])
            return rows.count == 1 ? Self.user(rows) : nil
        }
    }

    public func users() throws -> [User] {
        let rows = try connection.query("SELECT \(Self.userColumns) FROM users ORDER BY name_key, id")
        return (0..<rows.count).map { Self.user(rows, $0) }
    }

    public func removeUser(named name: String) throws -> Bool {
        guard User.isValidName(name) else { return false }
        return try write {
            // Sessions, favorites and roles go with the user (ON DELETE CASCADE).
            try connection.query("DELETE FROM users WHERE name_key = \(Self.nameKey)", [.text(name)]).affectedRows > 0
        }
    }

    // MARK: - Passwords

    public func setPasswordHash(_ hash: String?, forUser name: String) throws {
        guard User.isValidName(name) else { throw StorageError(.userNotFound, "no user named \"\(name.prefix(80))\"") }
        try write {
            let updated = try connection.query(
                "UPDATE users SET password_hash = $2 WHERE name_key = \(Self.nameKey)", [.text(name), .text(hash)])
            guard updated.affectedRows > 0 else { throw StorageError(.userNotFound, "no user named \"\(name)\"") }
            try connection.query(
                "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE name_key = \(Self.nameKey))",
                [.text(name)])
        }
    }

    public func passwordHash(forUser name: String) throws -> (user: User, hash: String)? {
        guard User.isValidName(name) else { return nil }
        return try lookup { connection in
            let rows = try connection.query(
                "SELECT \(Self.userColumns), password_hash FROM users WHERE name_key = \(Self.nameKey) "
                    + "AND password_hash IS NOT NULL", [.text(name)])
            return rows.count == 1 ? (Self.user(rows), rows.text(0, 4)) : nil
        }
    }

    // MARK: - API tokens

    public func replaceToken(forUser name: String, selector: String, hash: [UInt8]) throws {
        guard User.isValidName(name) else { throw StorageError(.userNotFound, "no user named \"\(name.prefix(80))\"") }
        try write {
            let updated = try connection.query(
                "UPDATE users SET token_selector = $2, token_hash = $3 WHERE name_key = \(Self.nameKey)",
                [.text(name), .text(selector), .bytea(hash)])
            guard updated.affectedRows > 0 else { throw StorageError(.userNotFound, "no user named \"\(name)\"") }
        }
    }

    public func tokenCredential(selector: String) throws -> (user: User, hash: [UInt8])? {
        guard !selector.utf8.contains(0) else { return nil }
        return try lookup { connection in
            let rows = try connection.query(
                "SELECT \(Self.userColumns), token_hash FROM users WHERE token_selector = $1 "
                    + "AND token_hash IS NOT NULL", [.text(selector)])
            return rows.count == 1 ? (Self.user(rows), rows.bytes(0, 4)) : nil
        }
    }

    // MARK: - Web sessions

    public func createSession(userID: Int64, selector: String, hash: [UInt8], expires: String) throws {
        try write {
            try requireUser(id: userID)
            try connection.query(
                "INSERT INTO sessions (selector, user_id, hash, expires) VALUES ($1, $2, $3, $4)",
                [.text(selector), .int8(userID), .bytea(hash), .text(expires)])
        }
    }

    public func sessionCredential(selector: String) throws -> (user: User, hash: [UInt8], expires: String)? {
        guard !selector.utf8.contains(0) else { return nil }
        return try lookup { connection in
            let rows = try connection.query(
                "SELECT \(Self.userColumns), sessions.hash, sessions.expires FROM sessions "
                    + "JOIN users ON users.id = sessions.user_id WHERE sessions.selector = $1", [.text(selector)])
            return rows.count == 1 ? (Self.user(rows), rows.bytes(0, 4), rows.text(0, 5)) : nil
        }
    }

    public func deleteSession(selector: String) throws {
        guard !selector.utf8.contains(0) else { return }
        try write {
            try connection.query("DELETE FROM sessions WHERE selector = $1", [.text(selector)])
        }
    }

    public func deleteExpiredSessions(now: String) throws {
        try write {
            try connection.query("DELETE FROM sessions WHERE expires <= $1", [.text(now)])
        }
    }

    // MARK: - Favorites

    public func favorites(ofUser id: Int64) throws -> [Favorite] {
        let rows = try connection.query(
            "SELECT catalog_id, item_id, added_at FROM favorites WHERE user_id = $1 ORDER BY seq DESC", [.int8(id)])
        return (0..<rows.count).map {
            Favorite(catalog: rows.text($0, 0), item: rows.text($0, 1), added: rows.text($0, 2))
        }
    }

    public func addFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        guard CatalogDefinition.isValidID(catalog) else {
            throw StorageError(.invalidArgument, "invalid catalog id for a favorite")
        }
        guard !item.isEmpty, item.utf8.count <= Self.maxFavoriteItemIDBytes else {
            throw StorageError(
                .invalidArgument, "a favorite's item id must be 1 to \(Self.maxFavoriteItemIDBytes) bytes long")
        }
        guard !item.utf8.contains(0) else {
            throw StorageError(.invalidArgument, "a favorite's item id cannot contain NUL")
        }
        return try write {
            try requireUser(id: userID)
            return try connection.query(
                """
                INSERT INTO favorites (user_id, catalog_id, item_id, seq)
                    SELECT $1, $2, $3, coalesce(max(seq), 0) + 1 FROM favorites WHERE user_id = $1
                    ON CONFLICT (user_id, catalog_id, item_id) DO NOTHING
                """, [.int8(userID), .text(catalog), .text(item)]
            ).affectedRows > 0
        }
    }

    public func removeFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        guard !catalog.utf8.contains(0), !item.utf8.contains(0) else { return false }
        return try write {
            try connection.query(
                "DELETE FROM favorites WHERE user_id = $1 AND catalog_id = $2 AND item_id = $3",
                [.int8(userID), .text(catalog), .text(item)]
            ).affectedRows > 0
        }
    }

    // MARK: - Roles in catalogs

    public func grant(user name: String, catalog: String, role: CatalogRole) throws -> CatalogRole? {
        guard CatalogDefinition.isValidID(catalog) else {
            throw StorageError(.invalidArgument, "invalid catalog id: use 1 to 64 letters, digits, '-' or '_'")
        }
        return try write {
            guard let user = try user(named: name) else {
                throw StorageError(.userNotFound, "no user named \"\(name.prefix(80))\"")
            }
            let previous = try connection.query(
                "SELECT role FROM grants WHERE user_id = $1 AND catalog_id = $2", [.int8(user.id), .text(catalog)])
            try connection.query(
                "INSERT INTO grants (user_id, catalog_id, role) VALUES ($1, $2, $3) "
                    + "ON CONFLICT (user_id, catalog_id) DO UPDATE SET role = excluded.role",
                [.int8(user.id), .text(catalog), .text(role.rawValue)])
            return previous.count == 1 ? CatalogRole(rawValue: previous.text(0, 0)) : nil
        }
    }

    public func revoke(user name: String, catalog: String) throws -> Bool {
        guard User.isValidName(name), CatalogDefinition.isValidID(catalog) else { return false }
        return try write {
            try connection.query(
                "DELETE FROM grants WHERE catalog_id = $2 "
                    + "AND user_id = (SELECT id FROM users WHERE name_key = \(Self.nameKey))",
                [.text(name), .text(catalog)]
            ).affectedRows > 0
        }
    }

    public func roles(ofUser id: Int64) throws -> [String: CatalogRole] {
        let rows = try connection.query("SELECT catalog_id, role FROM grants WHERE user_id = $1", [.int8(id)])
        var roles: [String: CatalogRole] = [:]
        for row in 0..<rows.count {
            if let role = CatalogRole(rawValue: rows.text(row, 1)) { roles[rows.text(row, 0)] = role }
        }
        return roles
    }

    public func members(ofCatalog id: String) throws -> [CatalogMember] {
        guard CatalogDefinition.isValidID(id) else { return [] }
        let rows = try connection.query(
            "SELECT users.name, grants.role FROM grants JOIN users ON users.id = grants.user_id "
                + "WHERE grants.catalog_id = $1 ORDER BY users.name_key, users.id", [.text(id)])
        return (0..<rows.count).compactMap { row in
            CatalogRole(rawValue: rows.text(row, 1)).map { CatalogMember(user: rows.text(row, 0), role: $0) }
        }
    }

    public func removeCatalog(_ id: String) throws {
        guard CatalogDefinition.isValidID(id) else { return }
        try write {
            try connection.query("DELETE FROM grants WHERE catalog_id = $1", [.text(id)])
            try connection.query("DELETE FROM favorites WHERE catalog_id = $1", [.text(id)])
            try removeCatalogFromKeys(id)
        }
    }

    // MARK: - Copying

    public func accounts() throws -> [StoredAccount] {
        let rows = try connection.query(
            "SELECT \(Self.userColumns), password_hash, token_selector, token_hash FROM users ORDER BY name_key, id")
        var accounts = (0..<rows.count).map { row in
            StoredAccount(
                user: Self.user(rows, row), passwordHash: rows.optionalText(row, 4),
                token: rows.optionalText(row, 5).map { ($0, rows.bytes(row, 6)) }, sessions: [], favorites: [])
        }
        for index in accounts.indices {
            let sessions = try connection.query(
                "SELECT selector, hash, expires FROM sessions WHERE user_id = $1 ORDER BY selector",
                [.int8(accounts[index].user.id)])
            accounts[index].sessions = (0..<sessions.count).map {
                StoredSession(
                    selector: sessions.text($0, 0), hash: sessions.bytes($0, 1), expires: sessions.text($0, 2))
            }
            accounts[index].favorites = try favorites(ofUser: accounts[index].user.id)
            accounts[index].roles = try roles(ofUser: accounts[index].user.id)
            accounts[index].keys = try keyCredentials(ofUser: accounts[index].user.id)
        }
        return accounts
    }

    public func restore(_ account: StoredAccount) throws -> User {
        let name = account.user.name
        guard User.isValidName(name) else {
            throw StorageError(.invalidArgument, "invalid user name \"\(name.prefix(80))\"")
        }
        return try write {
            // Sessions, favorites, roles and keys of an account of the same name go with it (ON DELETE CASCADE).
            try connection.query("DELETE FROM users WHERE name_key = \(Self.nameKey)", [.text(name)])
            let rows = try connection.query(
                "INSERT INTO users (name, is_admin, password_hash, token_selector, token_hash, created_at) "
                    + "VALUES ($1, $2, $3, $4, $5, $6) RETURNING \(Self.userColumns)",
                [
                    .text(name), .bool(account.user.isAdmin), .text(account.passwordHash),
                    .text(account.token?.selector), account.token.map { .bytea($0.hash) } ?? .null(.bytea),
                    .text(account.user.createdAt),
                ])
            let user = Self.user(rows)
            for session in account.sessions {
                try connection.query(
                    "INSERT INTO sessions (selector, user_id, hash, expires) VALUES ($1, $2, $3, $4)",
                    [.text(session.selector), .int8(user.id), .bytea(session.hash), .text(session.expires)])
            }
            for (offset, favorite) in account.favorites.enumerated() {
                try connection.query(
                    "INSERT INTO favorites (user_id, catalog_id, item_id, added_at, seq) VALUES ($1, $2, $3, $4, $5)",
                    [
                        .int8(user.id), .text(favorite.catalog), .text(favorite.item), .text(favorite.added),
                        .int8(Int64(account.favorites.count - offset)),
                    ])
            }
            for (catalog, role) in account.roles.sorted(by: { $0.key < $1.key }) {
                guard CatalogDefinition.isValidID(catalog) else {
                    throw StorageError(
                        .invalidArgument, "invalid catalog id \"\(catalog.prefix(80))\" in a role of \"\(name)\"")
                }
                try connection.query(
                    "INSERT INTO grants (user_id, catalog_id, role) VALUES ($1, $2, $3)",
                    [.int8(user.id), .text(catalog), .text(role.rawValue)])
            }
            for key in account.keys { try insertKey(key, userID: user.id, keepingTimes: true) }
            return user
        }
    }

    /// Throws `.userNotFound` unless user `id` exists.
    private func requireUser(id: Int64) throws {
        guard try connection.query("SELECT 1 FROM users WHERE id = $1", [.int8(id)]).count == 1 else {
            throw StorageError(.userNotFound, "no user with id \(id)")
        }
    }
}
