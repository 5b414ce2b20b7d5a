/// Where secrets come from: the system's secure random source, or fixed bytes in tests.
///
/// ```swift
/// let fixed = RandomBytes { count in [UInt8](repeating: 7, count: count) }
/// let token = APIToken.issue(random: fixed)  // always the same token
/// ```
public struct RandomBytes: Sendable {
    /// Returns exactly the number of bytes asked for.
    public var generate: @Sendable (_ count: Int) -> [UInt8]

    /// A source calling `generate` for each request.
    public init(_ generate: @escaping @Sendable (_ count: Int) -> [UInt8]) {
        self.generate = generate
    }

    /// libsodium's `randombytes_buf`: the operating system's secure random source.
    public static let system = RandomBytes { Sodium.randomBytes($0) }

    /// `count` bytes; stops the program if the source returns another number (a broken source
    /// must never produce short secrets).
    func bytes(_ count: Int) -> [UInt8] {
        let bytes = generate(count)
        precondition(bytes.count == count, "RandomBytes returned \(bytes.count) bytes instead of \(count)")
        return bytes
    }
}
