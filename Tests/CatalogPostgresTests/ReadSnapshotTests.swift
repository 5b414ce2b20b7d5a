import Testing

@testable import CatalogPostgres

/// When a reading connection renews its snapshot, and when its epoch changes.
@Suite struct ReadSnapshotTests {
    let start = ContinuousClock.now

    @Test func aSnapshotIsKeptForItsLifetimeThenRenewed() {
        var snapshot = ReadSnapshot(lifetime: .milliseconds(100))
        #expect(snapshot.next(now: start, generation: 0) == .begin)
        snapshot.began(now: start, generation: 0, dataVersion: 7)
        #expect(snapshot.next(now: start + .milliseconds(99), generation: 0) == .keep)
        #expect(snapshot.next(now: start + .milliseconds(100), generation: 0) == .renew)
    }

    @Test func aWriteThroughThisProcessRenewsAtOnce() {
        var snapshot = ReadSnapshot(lifetime: .seconds(10))
        snapshot.began(now: start, generation: 0, dataVersion: 7)
        let epoch = snapshot.epoch
        #expect(snapshot.next(now: start, generation: 1) == .renew)
        snapshot.began(now: start, generation: 1, dataVersion: 8)
        #expect(snapshot.epoch == epoch + 1)
    }

    @Test func theEpochChangesOnlyWhenTheDataVersionDoes() {
        var snapshot = ReadSnapshot(lifetime: .zero)
        snapshot.began(now: start, generation: 0, dataVersion: 7)
        let epoch = snapshot.epoch
        #expect(snapshot.next(now: start, generation: 0) == .renew, "a zero lifetime renews for every read")
        snapshot.began(now: start, generation: 0, dataVersion: 7)
        #expect(snapshot.epoch == epoch, "same data, same epoch: cached answers stay valid")
        // Another process wrote.
        snapshot.began(now: start, generation: 0, dataVersion: 9)
        #expect(snapshot.epoch == epoch + 1)
    }

    @Test func anEndedSnapshotBeginsAgain() {
        var snapshot = ReadSnapshot(lifetime: .seconds(10))
        snapshot.began(now: start, generation: 0, dataVersion: 1)
        snapshot.ended()
        #expect(!snapshot.isOpen)
        #expect(snapshot.next(now: start, generation: 0) == .begin)
    }
}
