/// Why a storage operation failed, and whose fault that is.
///
/// Every failure has a ``code`` callers can match and a ``fault``: the caller's mistake
/// (``Fault/user``: an unknown catalog, a bad cursor, an unknown scope, a bad locale), the
/// environment's (``Fault/io``: a busy database, a full disk, a file that cannot be opened, a
/// stop), or the engine's own (``Fault/internal``).
///
/// `description` is for users: it names the operation and the problem, never bound values or
/// the SQL; `debugDescription` adds the engine's code and statement for logs.
///
/// ```swift
/// do {
///     try reader.items(of: catalog, after: cursor, limit: 50)
/// } catch let error as StorageError where error.fault == .user {
///     // tell the caller what to fix: error.description
/// }
/// ```
public struct StorageError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whose fault a failure is (milli's `User | Internal | Io`).
    public enum Fault: Sendable, Hashable {
        /// The caller asked wrongly: something named does not exist, or a value is malformed or
        /// out of range. Telling the caller is enough; nothing is wrong with the store.
        case user
        /// The store's environment failed or refused for now: the database is busy or cannot be
        /// opened, the disk is full, the operation was stopped.
        case io
        /// The engine failed in a way nobody but the server's operator can act on.
        case `internal`
    }

    /// What kind of failure this is: an opaque set that can grow without breaking callers'
    /// `switch`es (which need a `default:`), as postgres-nio's `PSQLError.Code`.
    ///
    /// ```swift
    /// switch error.code {
    /// case .busy: retry()
    /// default: throw error
    /// }
    /// ```
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case catalogNotFound, itemNotFound, userNotFound, nameNotFound, invalidArgument, constraint
            case cannotOpen, busy, full, cancelled
            case engine
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The catalog does not exist.
        public static let catalogNotFound = Code(.catalogNotFound)
        /// The item does not exist.
        public static let itemNotFound = Code(.itemNotFound)
        /// The user does not exist.
        public static let userNotFound = Code(.userNotFound)
        /// A named part of a catalog (a section, category or scope) does not exist.
        public static let nameNotFound = Code(.nameNotFound)
        /// A parameter is out of range or malformed (a bad cursor, an unknown scope, a bad locale).
        public static let invalidArgument = Code(.invalidArgument)
        /// A constraint failed (for example a duplicate id).
        public static let constraint = Code(.constraint)
        /// The database file cannot be opened, is not a catalog database, or is too new.
        public static let cannotOpen = Code(.cannotOpen)
        /// The database is busy or locked by another writer.
        public static let busy = Code(.busy)
        /// The disk (or the file system's quota) holding the database is full: the write was not
        /// made; reads still work.
        public static let full = Code(.full)
        /// The operation was cancelled (the client went away, a deadline passed, the server stops).
        public static let cancelled = Code(.cancelled)
        /// Anything else the engine reported.
        public static let engine = Code(.engine)

        /// Every code there is today, for tables that must cover them all.
        public static let all: [Code] = [
            .catalogNotFound, .itemNotFound, .userNotFound, .nameNotFound, .invalidArgument, .constraint,
            .cannotOpen, .busy, .full, .cancelled, .engine,
        ]

        /// Whose fault a failure with this code is.
        public var fault: Fault {
            switch base {
            case .catalogNotFound, .itemNotFound, .userNotFound, .nameNotFound, .invalidArgument, .constraint: .user
            case .cannotOpen, .busy, .full, .cancelled: .io
            case .engine: .internal
            }
        }

        /// The code's name (`busy`), for logs.
        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for users.
    public var message: String
    /// The engine's own result code (SQLite extended code, SQLSTATE).
    public var engineCode: String?
    /// The statement that failed, for logs only.
    public var statement: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - message: a sentence for users: no SQL, no bound values.
    ///   - engineCode: the engine's own result code, for logs.
    ///   - statement: the statement that failed, for logs.
    public init(_ code: Code, _ message: String, engineCode: String? = nil, statement: String? = nil) {
        self.code = code
        self.message = message
        self.engineCode = engineCode
        self.statement = statement
    }

    /// Whose fault this failure is.
    public var fault: Fault { code.fault }

    /// The message, for users.
    public var description: String { message }

    /// `busy: message [SQLITE 5] in `statement``, for logs.
    public var debugDescription: String {
        var text = "\(code): \(message)"
        if let engineCode { text += " [\(engineCode)]" }
        if let statement { text += " in `\(statement)`" }
        return text
    }
}
