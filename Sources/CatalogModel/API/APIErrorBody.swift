/// An API error: `{"error":{"code","message"}}` with a 4xx or 5xx status.
public struct APIErrorBody: Codable, Sendable, Equatable {
    /// The error itself.
    public struct Detail: Codable, Sendable, Equatable {
        /// A stable code to match (`not_found`, `bad_parameter`, `unauthorized`, `busy`).
        public var code: String
        /// A sentence for users.
        public var message: String

        /// Creates a detail.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The error.
    public var error: Detail

    /// Creates an error body.
    public init(code: String, message: String) { error = Detail(code: code, message: message) }
}
