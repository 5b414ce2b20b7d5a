/// Why a storage operation failed.
///
/// `description` is for users: it names the operation and the problem, never bound values or
/// the SQL; `debugDescription` adds the engine's code and statement for logs.
public struct StorageError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Equatable {
        /// The catalog does not exist.
        case catalogNotFound
        /// The item does not exist.
        case itemNotFound
        /// The user does not exist.
        case userNotFound
        /// A named part of a catalog (a section, category or scope) does not exist.
        case nameNotFound
        /// A parameter is out of range or malformed (a bad cursor, an unknown scope).
        case invalidArgument
        /// The database file cannot be opened, is not a catalog database, or is too new.
        case cannotOpen
        /// The database is busy or locked by another writer.
        case busy
        /// A constraint failed (for example a duplicate id).
        case constraint
        /// The disk (or the file system's quota) holding the database is full: the write was not
        /// made; reads still work.
        case full
        /// The operation was cancelled (the client went away, a deadline passed, the server stops).
        case cancelled
        /// Anything else the engine reported.
        case engine
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
    public init(_ code: Code, _ message: String, engineCode: String? = nil, statement: String? = nil) {
        self.code = code
        self.message = message
        self.engineCode = engineCode
        self.statement = statement
    }

    public var description: String { message }

    public var debugDescription: String {
        var text = "\(code.rawValue): \(message)"
        if let engineCode { text += " [\(engineCode)]" }
        if let statement { text += " in `\(statement)`" }
        return text
    }
}
