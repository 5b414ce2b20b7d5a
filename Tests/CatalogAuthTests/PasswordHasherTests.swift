import CatalogAuth
import Testing

@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher()

    @Test func theRightPasswordVerifiesAndAWrongOneDoesNot() throws {
        let encoded = try hasher.hash("correct horse battery staple")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"))
        #expect(hasher.verify("correct horse battery staple", against: encoded))
        #expect(!hasher.verify("correct horse battery stapler", against: encoded))
        #expect(!hasher.verify("Correct horse battery staple", against: encoded))
        #expect(!hasher.verify("", against: encoded))
        #expect(try hasher.hash("correct horse battery staple") != encoded, "a fresh salt each time")
    }

    @Test func canonicallyEquivalentPasswordsAreTheSame() throws {
        let encoded = try hasher.hash("caf\u{E9}")
        #expect(hasher.verify("cafe\u{301}", against: encoded))
        #expect(!hasher.verify("cafe", against: encoded))
    }

    @Test func emptyAndOversizedPasswordsAreRefused() throws {
        #expect(throws: AuthError(.invalidPassword, "a password cannot be empty")) { try hasher.hash("") }
        let tooLong = String(repeating: "x", count: PasswordHasher.maxPasswordBytes + 1)
        #expect(throws: AuthError(.invalidPassword, "a password can be at most 1024 bytes long")) {
            try hasher.hash(tooLong)
        }
        #expect(throws: AuthError.self) { try hasher.hash(String(repeating: "ü", count: 513)) }
        #expect(throws: AuthError.self) { try hasher.hash(String(repeating: "x", count: 10_000_000)) }
        let longest = String(repeating: "x", count: PasswordHasher.maxPasswordBytes)
        #expect(hasher.verify(longest, against: try hasher.hash(longest)))
        #expect(!hasher.verify(tooLong, against: try hasher.hash(longest)))
    }

    @Test func malformedHashesNeverVerify() {
        for encoded in [
            "", "$argon2id$", "not a hash", "$argon2id$v=19$m=65536,t=2,p=1$\u{0}", String(repeating: "$", count: 500),
        ] {
            #expect(!hasher.verify("password", against: encoded))
        }
    }
}
