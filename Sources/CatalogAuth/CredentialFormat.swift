/// The shape shared by API tokens and session cookies: `<prefix><selector>_<secret>`.
///
/// The selector (12 random bytes) finds the credential in the store and is not secret; the secret
/// (32 random bytes) is stored only as its BLAKE2b-256 hash and compared in constant time. Both are
/// unpadded URL-safe base64, so every credential of a format has the same length and the `_`
/// between them sits at a fixed place (base64url itself may contain `_`).
struct CredentialFormat: Sendable {
    /// Four ASCII characters naming the kind of credential (`ctk_`, `cts_`).
    let prefix: String

    static let selectorByteCount = 12
    static let secretByteCount = 32
    /// Characters of the encoded selector and secret (4 per 3 bytes, unpadded).
    static let selectorLength = 16
    static let secretLength = 43

    /// Characters in a credential of this format.
    var length: Int { prefix.utf8.count + Self.selectorLength + 1 + Self.secretLength }

    /// A new credential: the text to hand out once, and what the store keeps.
    func issue(random: RandomBytes) -> (text: String, selector: String, hash: [UInt8]) {
        let selector = Sodium.base64URL(random.bytes(Self.selectorByteCount))
        var secret = random.bytes(Self.secretByteCount)
        defer { Sodium.wipe(&secret) }
        return (prefix + selector + "_" + Sodium.base64URL(secret), selector, Sodium.hash(secret))
    }

    /// Splits a presented credential into its selector and decoded secret; nil for anything that
    /// is not exactly a credential of this format. Never traps, whatever `text` holds.
    func parse(_ text: String) -> (selector: String, secret: [UInt8])? {
        // Length first: an oversized input is rejected before any of it is copied.
        guard text.utf8.count == length else { return nil }
        let bytes = Array(text.utf8)
        let prefixBytes = Array(prefix.utf8)
        guard bytes.starts(with: prefixBytes) else { return nil }
        let selectorEnd = prefixBytes.count + Self.selectorLength
        guard bytes[selectorEnd] == UInt8(ascii: "_") else { return nil }
        let selector = bytes[prefixBytes.count..<selectorEnd]
        let secret = bytes[(selectorEnd + 1)...]
        guard selector.allSatisfy(Self.isBase64URL), secret.allSatisfy(Self.isBase64URL),
            Sodium.decodeBase64URL(selector, count: Self.selectorByteCount) != nil,
            let decoded = Sodium.decodeBase64URL(secret, count: Self.secretByteCount)
        else { return nil }
        return (String(decoding: selector, as: UTF8.self), decoded)
    }

    /// Whether `secret` hashes to `hash`, compared in constant time.
    static func verify(secret: [UInt8], against hash: [UInt8]) -> Bool {
        Sodium.constantTimeEqual(Sodium.hash(secret), hash)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
