import CatalogModel
import CatalogStorage
import SQLiteSupport

/// Accounts, API tokens, web sessions and favorites in the `users`, `sessions` and `favorites`
/// tables (schema version 2).
///
/// Reads use the connection the store was made with; writes go through the database's one
/// read-write connection, one writer at a time.
public final class SQLiteUserStore: UserStore {
    private let reads: () throws -> Connection
    private let writes: ((Connection) throws -> Void) throws -> Void
    private var writing: Connection?

    /// The connection statements run on: the write connection inside ``write(_:_:)``, else a
    /// reader in a fresh snapshot.
    private var connection: Connection {
        get throws { try writing ?? reads() }
    }

    /// The longest item id a favorite may name, in UTF-8 bytes.
    public static let maxFavoriteItemIDBytes = 1024

    private static let userColumns = "users.id, users.name, users.is_admin, users.created_at"

    /// A store reading on the connection `reads` gives (in a fresh snapshot) and writing through
    /// `writes`, which runs its argument with the write connection.
    init(reads: @escaping () throws -> Connection, writes: @escaping ((Connection) throws -> Void) throws -> Void) {
        self.reads = reads
        self.writes = writes
    }

    /// A store on the write connection itself.
    convenience init(connection: Connection, readOnly: Bool) {
        self.init(reads: { connection }, writes: { body in try body(connection) })
    }

    /// Decodes the first four columns, selected with ``userColumns``.
    private func user(from row: Statement) -> User {
        User(id: row.int64(0), name: row.text(1), isAdmin: row.int(2) != 0, createdAt: row.text(3))
    }

    /// Runs `body` in a write transaction on the write connection.
    private func write<T>(_ action: String, _ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let box = ResultBox<T>()
            try writes { writer in
                writing = writer
                defer { writing = nil }
                box.value = try writer.isAutocommit ? writer.transaction(body) : body()
            }
            guard let value = box.value else { throw StorageError(.engine, "cannot \(action)") }
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
            // Sessions and favorites go with the user (ON DELETE CASCADE).
            try connection.cached("DELETE FROM users WHERE name = ?").bind(name).run()
            return try connection.changes > 0
        }
    }

    // MARK: - Passwords

    public func setPasswordHash(_ hash: String?, forUser name: String) throws {
        try write("set a password") {
            try connection.cached("UPDATE users SET password_hash = ? WHERE name = ?").bind(hash, name).run()
            guard try connection.changes > 0 else { throw StorageError(.userNotFound, "no user named \"\(name)\"") }
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
            guard try connection.changes > 0 else { throw StorageError(.userNotFound, "no user named \"\(name)\"") }
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
            return try connection.changes > 0
        }
    }

    public func removeFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        try write("remove a favorite") {
            try connection.cached("DELETE FROM favorites WHERE user_id = ? AND catalog_id = ? AND item_id = ?")
                .bind(userID, catalog, item).run()
            return try connection.changes > 0
        }
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
        }
        return accounts
    }

    public func restore(_ account: StoredAccount) throws -> User {
        let name = account.user.name
        guard User.isValidName(name) else {
            throw StorageError(.invalidArgument, "invalid user name \"\(name.prefix(80))\"")
        }
        return try write("restore a user") {
            // Sessions and favorites of an account of the same name go with it (ON DELETE CASCADE).
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

/// Carries a write's result out of the closure that runs it.
private final class ResultBox<T> {
    var value: T?
}
