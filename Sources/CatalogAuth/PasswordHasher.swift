import CSodium
import Foundation

/// Hashes passwords with argon2id (libsodium's `crypto_pwhash_str_alg`, interactive limits:
/// 2 passes over 64 MiB, about 0.1 s) into self-describing strings such as
/// `$argon2id$v=19$m=65536,t=2,p=1$…`, and checks passwords against them.
///
/// Passwords are compared in Unicode NFC, so `é` typed as one character or as `e` plus an accent
/// is the same password.
///
/// ```swift
/// let hasher = PasswordHasher()
/// let encoded = try hasher.hash("correct horse battery staple")
/// hasher.verify("correct horse battery staple", against: encoded)  // true
/// ```
public struct PasswordHasher: Sendable {
    /// The longest password accepted, in UTF-8 bytes (after NFC normalization).
    public static let maxPasswordBytes = 1024

    private let opsLimit: UInt64
    private let memLimit: Int

    /// A hasher with libsodium's interactive limits (`crypto_pwhash_OPSLIMIT_INTERACTIVE`,
    /// `crypto_pwhash_MEMLIMIT_INTERACTIVE`).
    public init() {
        _ = Sodium.ready
        opsLimit = csodium_pwhash_opslimit_interactive()
        memLimit = csodium_pwhash_memlimit_interactive()
    }

    /// Hashes a password with a fresh random salt.
    ///
    /// - Parameter password: 1 to ``maxPasswordBytes`` bytes of UTF-8.
    /// - Returns: the encoded hash (algorithm, parameters, salt and hash in one ASCII string).
    /// - Throws: ``AuthError`` `.invalidPassword` for an empty or oversized password,
    ///   `.hashingFailed` when libsodium cannot (out of memory).
    public func hash(_ password: String) throws(AuthError) -> String {
        guard var bytes = Self.bytes(of: password) else {
            throw AuthError(.invalidPassword, "a password can be at most \(Self.maxPasswordBytes) bytes long")
        }
        defer { Sodium.wipe(&bytes) }
        guard !bytes.isEmpty else { throw AuthError(.invalidPassword, "a password cannot be empty") }
        var out = [CChar](repeating: 0, count: csodium_pwhash_strbytes())
        let rc = bytes.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { chars in
                crypto_pwhash_str_alg(
                    &out, chars.baseAddress!, UInt64(chars.count), opsLimit, memLimit, crypto_pwhash_alg_argon2id13())
            }
        }
        guard rc == 0 else { throw AuthError(.hashingFailed, "the password could not be hashed (out of memory?)") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Checks a password against an encoded hash from ``hash(_:)``, in time that does not depend on
    /// how much of it matches.
    ///
    /// - Returns: false for a wrong password, an empty or oversized one, or a malformed hash.
    public func verify(_ password: String, against encoded: String) -> Bool {
        guard var bytes = Self.bytes(of: password) else { return false }
        defer { Sodium.wipe(&bytes) }
        guard !bytes.isEmpty, encoded.utf8.count < csodium_pwhash_strbytes(), !encoded.utf8.contains(0)
        else { return false }
        return bytes.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { chars in
                crypto_pwhash_str_verify(encoded, chars.baseAddress!, UInt64(chars.count)) == 0
            }
        }
    }

    /// Spends the time of a real check without a real hash, so that "no such user" takes as long
    /// as "wrong password" and sign-in does not reveal which names exist.
    func verifyAgainstDummy(_ password: String) {
        _ = verify(password, against: Self.dummyHash)
    }

    /// A hash of a random password nobody knows, made once with the same limits as real hashes.
    private static let dummyHash: String =
        (try? PasswordHasher().hash(Sodium.base64URL(Sodium.randomBytes(32)))) ?? ""

    /// The password's bytes in NFC; nil when longer than ``maxPasswordBytes`` (checked before
    /// normalizing too, so a huge input costs no work).
    private static func bytes(of password: String) -> [UInt8]? {
        guard password.utf8.count <= maxPasswordBytes * 4 else { return nil }
        let bytes = Array(password.precomposedStringWithCanonicalMapping.utf8)
        return bytes.count <= maxPasswordBytes ? bytes : nil
    }
}
