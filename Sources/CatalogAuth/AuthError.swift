/// Why an authentication operation failed.
///
/// Wrong credentials are not errors: checks return nil. `description` is for users and never
/// contains a password, token or hash.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Equatable {
        /// The password is empty or longer than ``PasswordHasher/maxPasswordBytes``.
        case invalidPassword
        /// An argument is out of range (a session lifetime that is not positive).
        case invalidArgument
        /// libsodium could not hash the password (out of memory).
        case hashingFailed
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
