import CatalogAuth
import Testing

@Suite struct APITokenTests {
    @Test func anIssuedTokenParsesAndVerifies() throws {
        let token = APIToken.issue()
        #expect(token.text.hasPrefix("ctk_"))
        #expect(token.text.utf8.count == 64)
        #expect(APIToken.length == 64)
        #expect(token.selector.utf8.count == 16)
        #expect(token.hash.count == 32)
        let parsed = try #require(APIToken.parse(token.text))
        #expect(parsed.selector == token.selector)
        #expect(parsed.secret.count == 32)
        #expect(APIToken.verify(secret: parsed.secret, against: token.hash))
        #expect(APIToken.issue().text != token.text, "every token is new")
    }

    @Test func tokensAreBase64URLOfTheRandomBytesAndTheHashIsBLAKE2b256() throws {
        let token = APIToken.issue(random: CountingRandom().source)
        // selector = bytes 0…11, secret = bytes 12…43, both unpadded base64url.
        #expect(token.text == "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis")
        #expect(token.selector == "AAECAwQFBgcICQoL")
        #expect(
            token.hash == [
                143, 20, 49, 134, 21, 22, 82, 26, 84, 247, 12, 211, 138, 172, 208, 151, 76, 3, 251, 62, 64, 200, 184,
                218, 176, 209, 97, 80, 52, 198, 30, 161,
            ])
        let parsed = try #require(APIToken.parse(token.text))
        #expect(parsed.secret == Array(12..<44))
    }

    @Test func aWrongSecretIsRejected() throws {
        let token = APIToken.issue()
        var secret = try #require(APIToken.parse(token.text)).secret
        secret[31] ^= 1
        #expect(!APIToken.verify(secret: secret, against: token.hash))
        #expect(!APIToken.verify(secret: [], against: token.hash))
        let parsed = try #require(APIToken.parse(token.text))
        #expect(!APIToken.verify(secret: parsed.secret, against: Array(token.hash.dropLast())))
        #expect(!APIToken.verify(secret: parsed.secret, against: []))
    }

    static let valid = "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis"

    static let malformed: [String] = [
        "",
        "ctk_",
        "ctk__",
        String(repeating: "A", count: 64),
        valid + "A",
        String(valid.dropLast()),
        " " + valid,
        valid + "\n",
        "Bearer " + valid,
        "ctx" + valid.dropFirst(3),
        "CTK" + valid.dropFirst(3),
        "cts" + valid.dropFirst(3),
        // the separator moved or replaced
        "ctk_AAECAwQFBgcICQo_LDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis",
        "ctk_AAECAwQFBgcICQoL-DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis",
        // characters outside base64url, in either half
        "ctk_AAECAwQFBgcICQo+_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis",
        "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpK/s",
        "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpK=s",
        "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKé",
        // NUL bytes, whole or in place of a character
        "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygp\u{0}is",
        "ctk_AAECAwQF\u{0}gcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis",
        String(repeating: "\u{0}", count: 64),
        // SQL, padded to the right length or not
        "ctk_' OR 1=1 --",
        "ctk_' OR 1=1 LIMIT 1_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis",
        "ctk_AAECAwQFBgcICQoL_'; DROP TABLE users; --aaaaaaaaaaaaaaaaaaaa",
        // a non-canonical secret: the last character's unused bits are not zero
        "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKit",
    ]

    @Test(arguments: malformed)
    func malformedTokensAreRejected(_ text: String) {
        #expect(APIToken.parse(text) == nil)
    }

    @Test func oversizedInputIsRejectedWithoutWork() {
        let huge = String(repeating: "ctk_AAECAwQFBgcICQoL_", count: 100_000)
        #expect(APIToken.parse(huge) == nil)
        #expect(APIToken.parse(Self.valid + String(repeating: "A", count: 1_000_000)) == nil)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<1000 { _ = APIToken.parse(huge) }
        }
        #expect(elapsed < .seconds(1), "length is checked before anything is copied: \(elapsed)")
    }

    @Test func theMalformedTableHoldsNearMisses() {
        #expect(APIToken.parse(Self.valid) != nil)
        // Most entries have exactly a token's length and prefix, so the checks after those run.
        let nearMisses = Self.malformed.filter { $0.utf8.count == 64 && $0.hasPrefix("ctk_") }
        #expect(nearMisses.count >= 10)
    }

    @Test func descriptionsNeverShowTheSecret() throws {
        let token = APIToken.issue()
        let secret = String(token.text.dropFirst(21))
        #expect(!"\(token)".contains(secret))
        #expect(!String(reflecting: token).contains(secret))
        #expect("\(token)".contains(token.selector))
    }
}
