import CatalogModel

/// What an API key may be used for, granted when the key is made (`--actions read,search`).
///
/// A key never does more than its account may do at the time it is used: the actions only narrow
/// the account's rights (the server's access policy intersects them).
public enum KeyAction: String, Sendable, Codable, CaseIterable, Comparable {
    /// Read records and what is made of them: items, outline, sections, categories, featured,
    /// snapshot, change feed, history, images.
    case read
    /// Search.
    case search
    /// Change records and images.
    case write
    /// Import into the key's catalogs.
    case `import`
    /// What the account may manage: catalogs' definitions and members, and (for administrators)
    /// catalogs and accounts.
    case admin

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// The actions' names as a list for messages: "read, search, write, import, admin".
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Parses a comma-separated list (`read,search`), sorted and without repeats.
    ///
    /// - Returns: nil for an empty list or an unknown name.
    public static func list(_ text: String) -> [KeyAction]? {
        var actions = Set<KeyAction>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let action = KeyAction(rawValue: String(part.filter { !$0.isWhitespace })) else { return nil }
            actions.insert(action)
        }
        return actions.isEmpty ? nil : actions.sorted()
    }
}

/// An API key as stored and listed: who owns it, what it may do where, until when, and when and
/// from where it was last used. Its secret is never part of it.
///
/// Encoded as `{"name","user","catalogs","actions","filter","expires","createdAt","lastUsed",
/// "lastUsedFrom"}`.
public struct StoredAPIKey: Codable, Sendable, Equatable {
    /// The key's name: 1 to 64 letters, digits, `.`, `-`, `_` or `@`, unique in the database
    /// ignoring ASCII case.
    public var name: String
    /// The owning account's name.
    public var user: String
    /// The catalogs the key is for, by id, sorted; ``allCatalogs`` alone: every catalog.
    public var catalogs: [String]
    /// What it may do there, sorted.
    public var actions: [KeyAction]
    /// The record filter in its canonical text (`RecordFilter`), or nil.
    public var filter: String?
    /// When it stops working, ISO 8601 UTC; nil: never.
    public var expires: String?
    /// When it was made, ISO 8601 UTC.
    public var createdAt: String
    /// When it was last used (recorded at most about once a minute), or nil.
    public var lastUsed: String?
    /// The client address it was last used from, or nil.
    public var lastUsedFrom: String?

    /// The catalog list that means every catalog: `["*"]`.
    public static let allCatalogs = "*"

    /// Creates a key value; keys themselves are made by a ``UserStore``.
    public init(
        name: String, user: String, catalogs: [String], actions: [KeyAction], filter: String? = nil,
        expires: String? = nil, createdAt: String, lastUsed: String? = nil, lastUsedFrom: String? = nil
    ) {
        self.name = name
        self.user = user
        self.catalogs = catalogs
        self.actions = actions
        self.filter = filter
        self.expires = expires
        self.createdAt = createdAt
        self.lastUsed = lastUsed
        self.lastUsedFrom = lastUsedFrom
    }

    /// Checks what every engine checks before storing a key: a valid name, at least one catalog
    /// (valid ids, or ``allCatalogs`` alone) and at least one action.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` saying what is wrong.
    public func validate() throws(StorageError) {
        guard User.isValidName(name) else {
            throw StorageError(
                .invalidArgument, "invalid key name: use 1 to 64 letters, digits, '.', '-', '_' or '@'")
        }
        guard !catalogs.isEmpty else { throw StorageError(.invalidArgument, "a key needs at least one catalog") }
        if catalogs != [Self.allCatalogs] {
            for id in catalogs where !CatalogDefinition.isValidID(id) {
                throw StorageError(
                    .invalidArgument,
                    "invalid catalog id \"\(id.prefix(80))\" for a key: use 1 to 64 letters, digits, '-' or '_', "
                        + "or '*' alone for every catalog")
            }
        }
        guard !actions.isEmpty else {
            throw StorageError(.invalidArgument, "a key needs at least one action (\(KeyAction.names))")
        }
    }

    /// Whether the key is for catalog `id`.
    public func covers(catalog id: String) -> Bool {
        catalogs == [Self.allCatalogs] || catalogs.contains(id)
    }

    /// The catalogs as stored: ids joined by commas (ids hold no commas).
    public var catalogsText: String { catalogs.joined(separator: ",") }
    /// The actions as stored: names joined by commas.
    public var actionsText: String { actions.map(\.rawValue).joined(separator: ",") }

    /// Reads ``catalogsText`` back.
    public static func catalogs(fromText text: String) -> [String] {
        text.split(separator: ",").map(String.init)
    }

    /// Reads ``actionsText`` back, skipping names this version does not know.
    public static func actions(fromText text: String) -> [KeyAction] {
        text.split(separator: ",").compactMap { KeyAction(rawValue: String($0)) }.sorted()
    }
}

/// A new key's description, as ``UserStore/addKey(_:)`` stores it (and as `catalog copy`
/// carries keys between databases, with their use).
public struct NewAPIKey: Sendable, Equatable {
    /// The key as listed (its ``StoredAPIKey/createdAt`` is ignored when adding a new key).
    public var key: StoredAPIKey
    /// The public half of the key, which the store looks it up by.
    public var selector: String
    /// The hash of the key's secret half.
    public var hash: [UInt8]

    /// Creates the description.
    public init(key: StoredAPIKey, selector: String, hash: [UInt8]) {
        self.key = key
        self.selector = selector
        self.hash = hash
    }
}
