import Testing

@testable import CatalogPostgres

/// The read replicas' routing without I/O: turns, rests after failures, counts.
@Suite struct ReplicaRoutingTests {
    let start = ContinuousClock.now

    @Test func replicasTakeTurnsAndEachReadTriesTheOthersAfterItsOwn() {
        var routing = ReplicaRouting(count: 3, retryAfter: .seconds(1))
        #expect(routing.candidates(now: start) == [0, 1, 2])
        #expect(routing.candidates(now: start) == [1, 2, 0])
        #expect(routing.candidates(now: start) == [2, 0, 1])
        #expect(routing.candidates(now: start) == [0, 1, 2])
    }

    @Test func aFailedReplicaRestsUntilItsRetryTimeThenIsTriedAgain() {
        var routing = ReplicaRouting(count: 2, retryAfter: .seconds(1))
        routing.failed(0, now: start)
        #expect(routing.isResting(0, now: start + .milliseconds(999)))
        #expect(routing.candidates(now: start + .milliseconds(500)) == [1])
        #expect(routing.candidates(now: start + .milliseconds(500)) == [1])
        #expect(routing.skipped == [3, 0], "the failure and the two reads that passed it over")
        #expect(!routing.isResting(0, now: start + .seconds(1)))
        #expect(routing.candidates(now: start + .seconds(1)) == [0, 1])
    }

    @Test func aReadOrAProbeThatReachesAReplicaEndsItsRest() {
        var routing = ReplicaRouting(count: 1, retryAfter: .seconds(1))
        routing.failed(0, now: start)
        routing.answered(0)
        #expect(routing.candidates(now: start) == [0])
        routing.rest(0, now: start)
        #expect(routing.candidates(now: start) == [])
        routing.read(on: 0)
        #expect(!routing.isResting(0, now: start))
    }

    @Test func readsAreCountedWhereTheyWent() {
        var routing = ReplicaRouting(count: 2, retryAfter: .seconds(1))
        routing.read(on: 1)
        routing.read(on: 1)
        routing.behind(0)
        routing.readOnPrimary()
        #expect(routing.reads == [0, 2])
        #expect(routing.skipped == [1, 0])
        #expect(routing.primaryReads == 1)
    }

    @Test func withoutReplicasThereIsNothingToTry() {
        var routing = ReplicaRouting(count: 0, retryAfter: .seconds(1))
        #expect(routing.candidates(now: start).isEmpty)
    }
}
