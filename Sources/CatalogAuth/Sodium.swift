import CSodium

/// The libsodium calls CatalogAuth makes, with Swift types. Internal: callers use ``APIToken``,
/// ``PasswordHasher`` and ``Authenticator``.
enum Sodium {
    /// Initializes libsodium once per process (`sodium_init` is thread-safe; the `static let`
    /// runs it exactly once). Every entry point touches it before calling into the library.
    static let ready: Void = {
        // sodium_init fails only when the system offers no randomness; nothing can be secure then.
        precondition(sodium_init() >= 0, "libsodium could not be initialized")
    }()

    /// Bytes in a BLAKE2b-256 hash (`crypto_generichash_BYTES`).
    static let hashByteCount = 32

    /// `count` bytes from the operating system's secure random source.
    static func randomBytes(_ count: Int) -> [UInt8] {
        _ = ready
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return bytes
    }

    /// `bytes` in unpadded URL-safe base64 (`A–Z a–z 0–9 - _`).
    static func base64URL(_ bytes: [UInt8]) -> String {
        _ = ready
        let variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING
        var text = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        bytes.withUnsafeBufferPointer { input in
            _ = sodium_bin2base64(&text, text.count, input.baseAddress, input.count, variant)
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decodes unpadded URL-safe base64 that must hold exactly `count` bytes in its one canonical
    /// form (unused trailing bits zero); nil otherwise.
    static func decodeBase64URL(_ text: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        _ = ready
        var bytes = [UInt8](repeating: 0, count: count)
        var decoded = 0
        var end: UnsafePointer<CChar>?
        let rc = text.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { chars in
                let rc = sodium_base642bin(
                    &bytes, bytes.count, chars.baseAddress, chars.count, nil, &decoded, &end,
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING)
                // Everything must have been consumed, not just a valid prefix.
                return rc == 0 && end == chars.baseAddress.map { $0 + chars.count } ? 0 : -1
            }
        }
        guard rc == 0, decoded == count else { return nil }
        return bytes
    }

    /// The BLAKE2b-256 hash of `bytes` (`crypto_generichash`, unkeyed).
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        _ = ready
        var out = [UInt8](repeating: 0, count: hashByteCount)
        bytes.withUnsafeBufferPointer { input in
            _ = crypto_generichash(&out, out.count, input.baseAddress, UInt64(input.count), nil, 0)
        }
        return out
    }

    /// The BLAKE2b-256 hash of `bytes` keyed with `key` (16 to 64 bytes): a message
    /// authentication code only the key's holder can make.
    static func hash(_ bytes: [UInt8], key: [UInt8]) -> [UInt8] {
        _ = ready
        precondition((16...64).contains(key.count), "a BLAKE2b key has 16 to 64 bytes")
        var out = [UInt8](repeating: 0, count: hashByteCount)
        bytes.withUnsafeBufferPointer { input in
            key.withUnsafeBufferPointer { key in
                _ = crypto_generichash(
                    &out, out.count, input.baseAddress, UInt64(input.count), key.baseAddress, key.count)
            }
        }
        return out
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths (`sodium_memcmp`).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        _ = ready
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// Overwrites `bytes` with zeros in a way the compiler does not remove (`sodium_memzero`).
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }
}
