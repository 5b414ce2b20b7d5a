import CatalogAuth
import Foundation
import Testing

@Suite struct SignInThrottleTests {
    let clock = TestClock()

    func throttle(_ configure: (inout SignInThrottle.Policy) -> Void = { _ in }) -> SignInThrottle {
        var policy = SignInThrottle.Policy()
        configure(&policy)
        return SignInThrottle(policy: policy, clock: clock.authClock)
    }

    @Test func fiveFreeFailuresThenLocksThatDouble() {
        let throttle = throttle()
        for _ in 0..<5 {
            #expect(throttle.check(account: "ada", address: "a") == .allowed)
            throttle.recordFailure(account: "ada", address: "a")
        }
        #expect(throttle.check(account: "ada", address: "a") == .allowed)
        throttle.recordFailure(account: "ada", address: "a")
        #expect(throttle.check(account: "ADA", address: "b") == .locked(retryAfter: 1), "the account, from anywhere")
        clock.advance(seconds: 1)
        #expect(throttle.check(account: "ada", address: "a") == .allowed)
        throttle.recordFailure(account: "ada", address: "a")
        #expect(throttle.check(account: "ada", address: "a") == .locked(retryAfter: 2))
        clock.advance(seconds: 2)
        throttle.recordFailure(account: "ada", address: "a")
        #expect(throttle.check(account: "ada", address: "a") == .locked(retryAfter: 4))
        #expect(throttle.check(account: "bob", address: "c") == .allowed, "other accounts are not held")
    }

    @Test func locksNeverExceedTheirCeilingAndAreForgotten() {
        let throttle = throttle()
        for _ in 0..<100 {
            throttle.recordFailure(account: "ada", address: "a")
            clock.advance(seconds: 0.01)
        }
        // The address's own lock (15 min) holds address "a"; elsewhere the account's (5 min).
        #expect(throttle.check(account: "ada", address: "b") == .locked(retryAfter: 300))
        #expect(throttle.check(account: "other", address: "a") == .locked(retryAfter: 900))
        clock.advance(seconds: 300)
        #expect(throttle.check(account: "ada", address: "b") == .allowed, "a real user waits at most 5 minutes")
        clock.advance(seconds: 3600)
        throttle.recordFailure(account: "ada", address: "b")
        #expect(throttle.check(account: "ada", address: "b") == .allowed, "counts are forgotten after an hour")
    }

    @Test func aKnownAddressIsNotHeldByItsAccountsLock() {
        let throttle = throttle()
        throttle.recordSuccess(account: "ada", address: "home")
        for _ in 0..<50 { throttle.recordFailure(account: "ada", address: "attacker") }
        #expect(throttle.check(account: "ada", address: "elsewhere") != .allowed)
        #expect(throttle.check(account: "ada", address: "home") == .allowed, "the owner still signs in")
        throttle.recordSuccess(account: "ada", address: "home")
        #expect(throttle.check(account: "ada", address: "home") == .allowed)
        #expect(
            throttle.check(account: "ada", address: "elsewhere") != .allowed,
            "the owner's success does not forgive the attacker's failures")
        #expect(throttle.check(account: "x", address: "attacker") != .allowed, "the attacker stays held")
        clock.advance(seconds: 31 * 24 * 3600)
        for _ in 0..<50 { throttle.recordFailure(account: "ada", address: "attacker2") }
        #expect(throttle.check(account: "ada", address: "home") != .allowed, "known only for 30 days")
    }

    @Test func oneAddressSprayingManyAccountsIsLocked() {
        let throttle = throttle()
        for index in 0..<20 { throttle.recordFailure(account: "user\(index)", address: "spray") }
        #expect(throttle.check(account: "fresh", address: "spray") == .allowed)
        throttle.recordFailure(account: "user20", address: "spray")
        #expect(throttle.check(account: "fresh", address: "spray") == .locked(retryAfter: 1))
        #expect(throttle.check(account: "fresh", address: "else") == .allowed)
    }

    @Test func aSuccessForgivesOnlyThatAccountFromThatAddress() {
        let throttle = throttle()
        // Ada mistypes her own password twice, then signs in: those two are forgotten.
        for _ in 0..<4 { throttle.recordFailure(account: "ada", address: "a") }
        throttle.recordSuccess(account: "ada", address: "a")
        for _ in 0..<5 { throttle.recordFailure(account: "ada", address: "b") }
        #expect(throttle.check(account: "ada", address: "c") == .allowed, "4 + 5 would have locked it")
        // Guesses at other accounts, with a success of the attacker's own account between them,
        // keep counting against the address.
        var guesses = 0
        var firstLock: Int?
        for round in 0..<19 {
            for _ in 0..<5 {
                guesses += 1
                if throttle.check(account: "user\(round)", address: "x") == .allowed {
                    throttle.recordFailure(account: "user\(round)", address: "x")
                } else if firstLock == nil {
                    firstLock = guesses
                }
            }
            throttle.recordSuccess(account: "mine", address: "x")
        }
        #expect(firstLock == 22, "locked after the address's free failures, successes or not")
        #expect(throttle.check(account: "mine", address: "x") != .allowed)
        #expect(
            throttle.check(account: "user0", address: "y") == .allowed, "five failures, within the account's free ones")
    }

    @Test func aSuccessAfterALockKeepsTheLockOfOtherFailures() {
        let throttle = throttle()
        for index in 0..<18 { throttle.recordFailure(account: "user\(index)", address: "x") }
        for _ in 0..<4 { throttle.recordFailure(account: "mine", address: "x") }
        #expect(throttle.check(account: "mine", address: "x") == .locked(retryAfter: 2))
        throttle.recordSuccess(account: "mine", address: "x")
        #expect(throttle.check(account: "other", address: "x") == .allowed, "back to 18, within the free 20")
        throttle.recordFailure(account: "other", address: "x")
        throttle.recordFailure(account: "other", address: "x")
        throttle.recordFailure(account: "other", address: "x")
        #expect(throttle.check(account: "other", address: "x") == .locked(retryAfter: 1))
    }

    @Test func ipv6AddressesCountByTheir64Prefix() {
        #expect(SignInThrottle.addressKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(SignInThrottle.addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee") == "2001:db8:1:2::/64")
        #expect(SignInThrottle.addressKey("::1") == "0:0:0:0::/64")
        #expect(SignInThrottle.addressKey("203.0.113.9") == "203.0.113.9")
        let throttle = throttle()
        for index in 0..<21 { throttle.recordFailure(account: "user\(index)", address: "2001:db8::\(index + 1)") }
        #expect(throttle.check(account: "fresh", address: "2001:db8::ffff") == .locked(retryAfter: 1))
        #expect(throttle.check(account: "fresh", address: "2001:db8:0:1::1") == .allowed)
    }

    @Test func memoryIsBounded() {
        let throttle = throttle { $0.maxEntries = 100 }
        for index in 0..<1000 {
            throttle.recordFailure(account: "name\(index)", address: "10.0.\(index / 256).\(index % 256)")
            clock.advance(seconds: 0.001)
        }
        // The newest ones are still counted; the table did not grow past its bound (checked by
        // the eviction keeping this quick and the newest entry intact).
        for _ in 0..<5 { throttle.recordFailure(account: "name999", address: "z") }
        #expect(throttle.check(account: "name999", address: "y") == .locked(retryAfter: 1))
    }
}

@Suite struct FormTokensTests {
    @Test func sessionTokensAreBoundToTheirSession() {
        let tokens = FormTokens()
        let cookie = "cts_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
        let token = tokens.token(forSession: cookie)
        #expect(tokens.matches(token, session: cookie))
        #expect(!tokens.matches(token, session: cookie + "x"))
        #expect(!tokens.matches("", session: cookie))
        #expect(FormTokens().token(forSession: cookie) == token, "stable across restarts")
        #expect(!token.contains(cookie.dropFirst(4).prefix(16)))
    }

    @Test func anonymousTokensAreOnlyThoseIssued() {
        let tokens = FormTokens()
        let token = tokens.anonymousToken()
        #expect(tokens.isIssued(token))
        #expect(!FormTokens().isIssued(token), "another key")
        #expect(!tokens.isIssued(String(repeating: "A", count: 43)), "an attacker's choice")
        #expect(!tokens.isIssued(String(repeating: "A", count: 56)))
        var tampered = Array(token.utf8)
        tampered[0] = tampered[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(!tokens.isIssued(String(decoding: tampered, as: UTF8.self)))
        #expect(tokens.anonymousToken() != token)
    }
}
