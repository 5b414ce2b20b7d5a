import Foundation

/// Favorites that work without a network: a change made while the server cannot be reached is
/// kept in a file and sent by ``sync()`` once it can; the last change wins.
///
/// ```swift
/// let favorites = try OfflineFavorites(client: client, file: support.appendingPathComponent("favorites.json"))
/// try await favorites.set(true, catalog: "cookbook", item: "r01")   // .sent, or .kept while offline
/// let report = try await favorites.sync()                            // later, when online
/// ```
///
/// **Last write wins.** Only a record's newest change is kept. When it is sent, a removal made
/// here is skipped if the server's favorite was added after it (on another device, say), so the
/// later decision stands; an addition is always sent (adding twice changes nothing). Times are
/// this device's clock against the server's, to the second.
///
/// Every change is written to the file (in one step) before anything is sent, so a crash or a
/// kill loses nothing; a damaged file is moved aside to `FILE.damaged` and the queue starts empty.
public actor OfflineFavorites {
    /// One change not yet sent.
    public struct Change: Codable, Sendable, Hashable {
        /// The catalog's id.
        public var catalog: String
        /// The record's id.
        public var item: String
        /// True to mark it, false to unmark it.
        public var isFavorite: Bool
        /// When the user made the change.
        public var changed: Date

        /// Creates a change.
        public init(catalog: String, item: String, isFavorite: Bool, changed: Date) {
            self.catalog = catalog
            self.item = item
            self.isFavorite = isFavorite
            self.changed = changed
        }
    }

    /// What ``set(_:catalog:item:)`` did.
    public enum Outcome: Sendable, Hashable {
        /// The server has it.
        case sent
        /// The server cannot be reached: the change is kept for ``sync()``.
        case kept
    }

    /// What ``sync()`` did.
    public struct SyncReport: Sendable, Hashable {
        /// Changes the server now has.
        public var sent = 0
        /// Removals skipped because the server's favorite is newer.
        public var superseded = 0
        /// Changes dropped because their record no longer exists.
        public var dropped = 0
        /// Changes still kept (the connection broke off while sending).
        public var remaining = 0

        /// Creates a report.
        public init(sent: Int = 0, superseded: Int = 0, dropped: Int = 0, remaining: Int = 0) {
            self.sent = sent
            self.superseded = superseded
            self.dropped = dropped
            self.remaining = remaining
        }
    }

    private struct Stored: Codable {
        var changes: [Change] = []
        /// The favorites as last fetched, for showing them offline.
        var known: [FavoriteEntry]?
    }

    /// The client changes are sent with.
    public let client: CatalogClient
    /// The queue's file.
    public let file: URL
    private let now: @Sendable () -> Date
    private var stored: Stored

    /// Opens (or starts) the queue kept in `file`.
    ///
    /// - Parameters:
    ///   - client: the signed-in client that sends the changes.
    ///   - file: where the queue is kept (its folder must exist).
    ///   - now: the clock changes are stamped with.
    public init(client: CatalogClient, file: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.file = file
        self.now = now
        stored = Stored()
        if let data = try? Data(contentsOf: file) {
            if let decoded = try? Self.decoder.decode(Stored.self, from: data) {
                stored = decoded
            } else {
                let aside = file.appendingPathExtension("damaged")
                try? FileManager.default.removeItem(at: aside)
                try? FileManager.default.moveItem(at: file, to: aside)
            }
        }
    }

    /// The changes not yet sent, oldest first.
    public var pending: [Change] { stored.changes }

    /// Marks or unmarks a favorite: sent at once when the server can be reached, else kept.
    ///
    /// - Returns: ``Outcome/sent`` or ``Outcome/kept``.
    /// - Throws: ``CatalogClientError`` other than a connectivity failure: `.unauthorized` (the
    ///   change stays kept; sign in and ``sync()``), `.notFound` (the record does not exist; the
    ///   change is dropped), `.storage` when the queue cannot be written.
    @discardableResult
    public func set(_ isFavorite: Bool, catalog: String, item: String) async throws(CatalogClientError) -> Outcome {
        let change = Change(catalog: catalog, item: item, isFavorite: isFavorite, changed: now())
        stored.changes.removeAll { $0.catalog == catalog && $0.item == item }
        stored.changes.append(change)
        try save()
        do {
            try await send(change)
        } catch let error where error.isConnectivity {
            return .kept
        } catch let error where error.code == .notFound {
            try forget(change)
            throw error
        }
        try forget(change)
        return .sent
    }

    /// Sends the kept changes, the oldest first; last write wins (see the type's description).
    ///
    /// - Returns: what was sent, skipped, dropped and is still kept.
    /// - Throws: ``CatalogClientError``: a connectivity failure before anything could be sent,
    ///   `.unauthorized`; the changes stay kept.
    @discardableResult
    public func sync() async throws(CatalogClientError) -> SyncReport {
        guard !stored.changes.isEmpty else { return SyncReport() }
        let server = try await client.favorites()
        var added: [String: Date] = [:]
        for favorite in server {
            added["\(favorite.catalog)\n\(favorite.item)"] = Self.timestamp(favorite.added)
        }
        var report = SyncReport()
        for change in stored.changes {
            let serverAdded = added["\(change.catalog)\n\(change.item)"]
            if !change.isFavorite, let serverAdded, serverAdded > change.changed {
                report.superseded += 1
                try forget(change)
                continue
            }
            do {
                try await send(change)
                report.sent += 1
                try forget(change)
            } catch let error where error.code == .notFound {
                report.dropped += 1
                try forget(change)
            } catch let error where error.isConnectivity || error.code == .cancelled {
                break
            }
        }
        report.remaining = stored.changes.count
        if let fresh = try? await client.favorites() {
            stored.known = fresh
            try save()
        }
        return report
    }

    /// The favorites as the user sees them: the server's list (or, offline, the one fetched last)
    /// with the kept changes applied, newest first. A favorite added offline has no record until
    /// the server sends it; show it from an ``OfflineCatalog``.
    ///
    /// - Throws: ``CatalogClientError`` other than a connectivity failure (`.unauthorized`).
    public func favorites() async throws(CatalogClientError) -> [FavoriteEntry] {
        var list: [FavoriteEntry]
        do {
            list = try await client.favorites()
            stored.known = list
            try? save()
        } catch let error where error.isConnectivity {
            list = stored.known ?? []
        }
        for change in stored.changes {
            list.removeAll { $0.catalog == change.catalog && $0.item == change.item }
            if change.isFavorite {
                list.insert(
                    FavoriteEntry(
                        catalog: change.catalog, item: change.item, added: Self.timestamp(change.changed), record: nil),
                    at: 0)
            }
        }
        return list
    }

    private func send(_ change: Change) async throws(CatalogClientError) {
        if change.isFavorite {
            try await client.addFavorite(change.item, in: change.catalog)
        } else {
            try await client.removeFavorite(change.item, in: change.catalog)
        }
    }

    private func forget(_ change: Change) throws(CatalogClientError) {
        stored.changes.removeAll { $0 == change }
        try save()
    }

    private func save() throws(CatalogClientError) {
        do {
            try AtomicFile.write(try Self.encoder.encode(stored), to: file)
        } catch {
            throw CatalogClientError(.storage, "cannot write the favorites queue \(file.path)")
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// ISO 8601 in UTC, whole seconds, as the server writes `added`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    static func timestamp(_ text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
