@testable import CatalogClient
import Testing

/// The change sequence's state machine, without I/O: what it delivers, when it asks again, how it
/// waits out failures.
@Suite struct ChangeFollowerTests {
    static func upsert(_ number: Int) -> CatalogChange {
        CatalogChange(number: number, kind: .upsert, id: "r\(number)", record: Record(id: "r\(number)", title: "R"))
    }

    static func page(_ numbers: [Int], change: Int, next: Int? = nil, reload: Bool = false) -> CatalogChangePage {
        CatalogChangePage(change: change, changes: numbers.map(upsert), next: next, reload: reload)
    }

    func follower(since: Int = 10) -> ChangeFollower {
        ChangeFollower(since: since, retryDelay: .milliseconds(100), maxRetryDelay: .milliseconds(350))
    }

    @Test func deliversEachChangeOnceInOrderAndAsksAfterTheLast() {
        var follower = follower()
        #expect(follower.nextAction() == .fetch(after: 10))
        follower.received(Self.page([11, 12], change: 14, next: 12))
        #expect(follower.nextAction() == .deliver(Self.upsert(11)))
        #expect(follower.nextAction() == .deliver(Self.upsert(12)))
        #expect(follower.nextAction() == .fetch(after: 12))
        // An overlapping, partly reordered page: nothing twice, nothing backwards.
        follower.received(Self.page([11, 12, 13, 12, 14], change: 14))
        #expect(follower.nextAction() == .deliver(Self.upsert(13)))
        #expect(follower.nextAction() == .deliver(Self.upsert(14)))
        #expect(follower.nextAction() == .fetch(after: 14))
        #expect(follower.last == 14)
    }

    @Test func aReloadWithoutEntriesIsOneReloadAtTheCurrentNumber() {
        var follower = follower()
        follower.received(Self.page([], change: 40, reload: true))
        #expect(follower.nextAction() == .deliver(CatalogChange(number: 40, kind: .reload)))
        #expect(follower.nextAction() == .fetch(after: 40))
        // A catalog deleted and made again: its numbers start over, lower.
        follower.received(Self.page([], change: 3, reload: true))
        #expect(follower.nextAction() == .deliver(CatalogChange(number: 3, kind: .reload)))
        #expect(follower.nextAction() == .fetch(after: 3))
        follower.received(Self.page([4], change: 4))
        #expect(follower.nextAction() == .deliver(Self.upsert(4)))
    }

    @Test func networkFailuresAreWaitedOutWithDoublingWaitsThenResume() {
        var follower = follower()
        _ = follower.nextAction()
        follower.failed(CatalogClientError(.offline, "down"))
        #expect(follower.nextAction() == .wait(.milliseconds(100)))
        #expect(follower.nextAction() == .fetch(after: 10))
        follower.failed(CatalogClientError(.transport, "reset"))
        #expect(follower.nextAction() == .wait(.milliseconds(200)))
        #expect(follower.nextAction() == .fetch(after: 10))
        follower.failed(CatalogClientError(.unavailable, "busy", status: 503))
        #expect(follower.nextAction() == .wait(.milliseconds(350)))
        _ = follower.nextAction()
        follower.failed(CatalogClientError(.timedOut, "slow"))
        #expect(follower.nextAction() == .wait(.milliseconds(350)))
        _ = follower.nextAction()
        // A server's Retry-After is waited at least.
        follower.failed(CatalogClientError(.tooManyRequests, "later", status: 429, retryAfter: 2))
        #expect(follower.nextAction() == .wait(.seconds(2)))
        // An answer resets the waits.
        #expect(follower.nextAction() == .fetch(after: 10))
        follower.received(Self.page([11], change: 11))
        #expect(follower.nextAction() == .deliver(Self.upsert(11)))
        #expect(follower.nextAction() == .fetch(after: 11))
        follower.failed(CatalogClientError(.offline, "down"))
        #expect(follower.nextAction() == .wait(.milliseconds(100)))
    }

    @Test func otherFailuresEndTheSequenceWithTheError() {
        var follower = follower()
        _ = follower.nextAction()
        let missing = CatalogClientError(.notFound, "no catalog", status: 404)
        follower.failed(missing)
        #expect(follower.nextAction() == .finish(missing))
        #expect(follower.nextAction() == .finish(nil))
    }

    @Test func cancellingDeliversNothingMore() {
        var follower = follower()
        follower.received(Self.page([11, 12], change: 12))
        #expect(follower.nextAction() == .deliver(Self.upsert(11)))
        follower.cancel()
        #expect(follower.nextAction() == .finish(nil))
        var waiting = self.follower()
        _ = waiting.nextAction()
        waiting.failed(CatalogClientError(.cancelled, "cancelled"))
        #expect(waiting.nextAction() == .finish(nil))
    }
}
