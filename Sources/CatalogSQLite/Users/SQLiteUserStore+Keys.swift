import CatalogModel
import CatalogStorage
import SQLiteSupport

/// API keys in the `api_keys` table (schema version 3).
extension SQLiteUserStore {
    private static let keyColumns =
        "api_keys.name, users.name, api_keys.catalogs, api_keys.actions, api_keys.filter, api_keys.expires, "
        + "api_keys.created_at, api_keys.last_used_at, api_keys.last_used_from"

    /// Decodes the first nine columns, selected with ``keyColumns``.
    private func key(from row: Statement) -> StoredAPIKey {
        StoredAPIKey(
            name: row.text(0), user: row.text(1), catalogs: StoredAPIKey.catalogs(fromText: row.text(2)),
            actions: StoredAPIKey.actions(fromText: row.text(3)), filter: row.optionalText(4),
            expires: row.optionalText(5), createdAt: row.text(6), lastUsed: row.optionalText(7),
            lastUsedFrom: row.optionalText(8))
    }

    public func addKey(_ key: NewAPIKey) throws -> StoredAPIKey {
        try key.key.validate()
        return try write("add an API key") {
            guard let user = try user(named: key.key.user) else {
                throw StorageError(.userNotFound, "no user named \"\(key.key.user.prefix(80))\"")
            }
            if let existing = try self.key(named: key.key.name) {
                throw StorageError(.constraint, "a key named \"\(existing.name)\" already exists")
            }
            try insertKey(key, userID: user.id, keepingTimes: false)
            guard let stored = try self.key(named: key.key.name) else {
                throw StorageError(.engine, "adding key \"\(key.key.name)\" stored no row")
            }
            return stored
        }
    }

    /// Inserts a key of account `userID`; with `keepingTimes`, its creation and last use as given
    /// (a copy), else the creation time is now and it was never used.
    func insertKey(_ key: NewAPIKey, userID: Int64, keepingTimes: Bool) throws {
        try key.key.validate()
        let stored = key.key
        try connection.cached(
            "INSERT INTO api_keys (name, user_id, selector, hash, catalogs, actions, filter, expires, created_at, "
                + "last_used_at, last_used_from) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?, ?)"
        ).bind(
            stored.name, userID, key.selector, key.hash, stored.catalogsText, stored.actionsText, stored.filter,
            stored.expires, keepingTimes ? stored.createdAt : nil, keepingTimes ? stored.lastUsed : nil,
            keepingTimes ? stored.lastUsedFrom : nil
        ).run()
    }

    public func key(named name: String) throws -> StoredAPIKey? {
        let statement = try connection.cached(
            "SELECT \(Self.keyColumns) FROM api_keys JOIN users ON users.id = api_keys.user_id WHERE api_keys.name = ?")
        try statement.bind(name)
        defer { statement.finish() }
        return try statement.step() ? key(from: statement) : nil
    }

    public func keys(ofUser userID: Int64?) throws -> [StoredAPIKey] {
        let statement = try connection.cached(
            "SELECT \(Self.keyColumns) FROM api_keys JOIN users ON users.id = api_keys.user_id "
                + "WHERE ?1 IS NULL OR api_keys.user_id = ?1 ORDER BY api_keys.name")
        try statement.bind(userID)
        var keys: [StoredAPIKey] = []
        try statement.forEachRow { keys.append(key(from: $0)) }
        return keys
    }

    public func removeKey(named name: String) throws -> Bool {
        try write("revoke an API key") {
            try connection.cached("DELETE FROM api_keys WHERE name = ?").bind(name).run()
            return connection.changes > 0
        }
    }

    public func keyCredential(selector: String) throws -> (key: StoredAPIKey, user: User, hash: [UInt8])? {
        let statement = try connection.cached(
            "SELECT \(Self.keyColumns), api_keys.hash, \(Self.userColumns) FROM api_keys "
                + "JOIN users ON users.id = api_keys.user_id WHERE api_keys.selector = ?")
        try statement.bind(selector)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        let user = User(
            id: statement.int64(10), name: statement.text(11), isAdmin: statement.int(12) != 0,
            createdAt: statement.text(13))
        return (key(from: statement), user, statement.blob(9))
    }

    public func recordKeyUse(named name: String, at time: String, from address: String?) throws {
        try write("record an API key's use") {
            try connection.cached("UPDATE api_keys SET last_used_at = ?, last_used_from = ? WHERE name = ?")
                .bind(time, address, name).run()
        }
    }

    /// The account's keys with their selectors and hashes, for copying.
    func keyCredentials(ofUser userID: Int64) throws -> [NewAPIKey] {
        let statement = try connection.cached(
            "SELECT \(Self.keyColumns), api_keys.selector, api_keys.hash FROM api_keys "
                + "JOIN users ON users.id = api_keys.user_id WHERE api_keys.user_id = ? ORDER BY api_keys.name")
        try statement.bind(userID)
        var keys: [NewAPIKey] = []
        try statement.forEachRow { row in
            keys.append(NewAPIKey(key: key(from: row), selector: row.text(9), hash: row.blob(10)))
        }
        return keys
    }

    /// Takes catalog `id` out of every key's list (inside the caller's transaction).
    func removeCatalogFromKeys(_ id: String) throws {
        let statement = try connection.cached("SELECT name, catalogs FROM api_keys")
        var changed: [(String, String)] = []
        try statement.forEachRow { row in
            let catalogs = StoredAPIKey.catalogs(fromText: row.text(1))
            if catalogs.contains(id) {
                changed.append((row.text(0), catalogs.filter { $0 != id }.joined(separator: ",")))
            }
        }
        for (name, catalogs) in changed {
            try connection.cached("UPDATE api_keys SET catalogs = ? WHERE name = ?").bind(catalogs, name).run()
        }
    }
}
