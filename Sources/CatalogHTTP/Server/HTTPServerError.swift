/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable {
        /// The host is not an IPv4 or IPv6 address.
        case invalidAddress
        /// libmicrohttpd could not start (port in use, no permission, bad option).
        case cannotStart
        /// The server was already started or stopped.
        case invalidState
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for users.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
