import CatalogModel
import CatalogStorage

/// API keys in the `api_keys` table (schema version 6), with the SQLite engine's behaviour.
extension PostgresUserStore {
    private static let keyColumns =
        "api_keys.name, users.name, api_keys.catalogs, api_keys.actions, api_keys.filter, api_keys.expires, "
        + "api_keys.created_at, api_keys.last_used_at, api_keys.last_used_from"

    /// Decodes the first nine columns, selected with ``keyColumns``.
    private static func key(_ rows: PostgresResult, _ row: Int = 0) -> StoredAPIKey {
        StoredAPIKey(
            name: rows.text(row, 0), user: rows.text(row, 1),
            catalogs: StoredAPIKey.catalogs(fromText: rows.text(row, 2)),
            actions: StoredAPIKey.actions(fromText: rows.text(row, 3)), filter: rows.optionalText(row, 4),
            expires: rows.optionalText(row, 5), createdAt: rows.text(row, 6), lastUsed: rows.optionalText(row, 7),
            lastUsedFrom: rows.optionalText(row, 8))
    }

    public func addKey(_ key: NewAPIKey) throws -> StoredAPIKey {
        try key.key.validate()
        guard !key.key.catalogsText.utf8.contains(0), !(key.key.filter?.utf8.contains(0) ?? false) else {
            throw StorageError(.invalidArgument, "a key's catalogs and filter cannot contain NUL")
        }
        return try write {
            guard let user = try user(named: key.key.user) else {
                throw StorageError(.userNotFound, "no user named \"\(key.key.user.prefix(80))\"")
            }
            if let existing = try self.key(named: key.key.name) {
                throw StorageError(.constraint, "a key named \"\(existing.name)\" already exists")
            }
            do {
                try insertKey(key, userID: user.id, keepingTimes: false)
            } catch let error as StorageError where error.engineCode == "23505" {
                // Another server added the same name at the same moment.
                throw StorageError(.constraint, "a key named \"\(key.key.name)\" already exists", engineCode: "23505")
            }
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
        try connection.query(
            "INSERT INTO api_keys (name, user_id, selector, hash, catalogs, actions, filter, expires, created_at, "
                + "last_used_at, last_used_from) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
                + "coalesce($9, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')), $10, $11)",
            [
                .text(stored.name), .int8(userID), .text(key.selector), .bytea(key.hash), .text(stored.catalogsText),
                .text(stored.actionsText), .text(stored.filter), .text(stored.expires),
                .text(keepingTimes ? stored.createdAt : nil), .text(keepingTimes ? stored.lastUsed : nil),
                .text(keepingTimes ? stored.lastUsedFrom : nil),
            ])
    }

    public func key(named name: String) throws -> StoredAPIKey? {
        guard User.isValidName(name) else { return nil }
        let rows = try connection.query(
            "SELECT \(Self.keyColumns) FROM api_keys JOIN users ON users.id = api_keys.user_id "
                + "WHERE api_keys.name_key = \(Self.nameKey)", [.text(name)])
        return rows.count == 1 ? Self.key(rows) : nil
    }

    public func keys(ofUser userID: Int64?) throws -> [StoredAPIKey] {
        let rows = try connection.query(
            "SELECT \(Self.keyColumns) FROM api_keys JOIN users ON users.id = api_keys.user_id "
                + "WHERE $1::bigint IS NULL OR api_keys.user_id = $1 ORDER BY api_keys.name_key",
            [userID.map { .int8($0) } ?? .null(.int8)])
        return (0..<rows.count).map { Self.key(rows, $0) }
    }

    public func removeKey(named name: String) throws -> Bool {
        guard User.isValidName(name) else { return false }
        return try write {
            try connection.query("DELETE FROM api_keys WHERE name_key = \(Self.nameKey)", [.text(name)])
                .affectedRows > 0
        }
    }

    public func keyCredential(selector: String) throws -> (key: StoredAPIKey, user: User, hash: [UInt8])? {
        guard !selector.utf8.contains(0) else { return nil }
        let rows = try connection.query(
            "SELECT \(Self.keyColumns), api_keys.hash, \(Self.userColumns) FROM api_keys "
                + "JOIN users ON users.id = api_keys.user_id WHERE api_keys.selector = $1", [.text(selector)])
        guard rows.count == 1 else { return nil }
        let user = User(
            id: rows.int64(0, 10), name: rows.text(0, 11), isAdmin: rows.bool(0, 12), createdAt: rows.text(0, 13))
        return (Self.key(rows), user, rows.bytes(0, 9))
    }

    public func recordKeyUse(named name: String, at time: String, from address: String?) throws {
        guard User.isValidName(name), !(address?.utf8.contains(0) ?? false) else { return }
        try write {
            try connection.query(
                "UPDATE api_keys SET last_used_at = $2, last_used_from = $3 WHERE name_key = \(Self.nameKey)",
                [.text(name), .text(time), .text(address)])
        }
    }

    /// The account's keys with their selectors and hashes, for copying.
    func keyCredentials(ofUser userID: Int64) throws -> [NewAPIKey] {
        let rows = try connection.query(
            "SELECT \(Self.keyColumns), api_keys.selector, api_keys.hash FROM api_keys "
                + "JOIN users ON users.id = api_keys.user_id WHERE api_keys.user_id = $1 ORDER BY api_keys.name_key",
            [.int8(userID)])
        return (0..<rows.count).map { row in
            NewAPIKey(key: Self.key(rows, row), selector: rows.text(row, 9), hash: rows.bytes(row, 10))
        }
    }

    /// Takes catalog `id` out of every key's list (inside the caller's transaction).
    func removeCatalogFromKeys(_ id: String) throws {
        let rows = try connection.query("SELECT name_key, catalogs FROM api_keys")
        for row in 0..<rows.count {
            let catalogs = StoredAPIKey.catalogs(fromText: rows.text(row, 1))
            guard catalogs.contains(id) else { continue }
            try connection.query(
                "UPDATE api_keys SET catalogs = $2 WHERE name_key = $1",
                [.text(rows.text(row, 0)), .text(catalogs.filter { $0 != id }.joined(separator: ","))])
        }
    }
}
