import Testing

@testable import CatalogPostgres

/// When a reading connection asks for the data version, and when its epoch changes.
@Suite struct ReadEpochTests {
    let start = ContinuousClock.now

    @Test func aSeenVersionIsTrustedForTheIntervalThenAskedAgain() {
        var epoch = ReadEpoch(interval: .milliseconds(100))
        #expect(epoch.needsCheck(now: start, generation: 0))
        epoch.observed(now: start, generation: 0, dataVersion: 7)
        #expect(!epoch.needsCheck(now: start + .milliseconds(99), generation: 0))
        #expect(epoch.needsCheck(now: start + .milliseconds(100), generation: 0))
    }

    @Test func aWriteThroughThisProcessIsAskedAboutAtOnce() {
        var epoch = ReadEpoch(interval: .seconds(10))
        epoch.observed(now: start, generation: 0, dataVersion: 7)
        let before = epoch.epoch
        #expect(epoch.needsCheck(now: start, generation: 1))
        epoch.observed(now: start, generation: 1, dataVersion: 8)
        #expect(epoch.epoch == before + 1)
    }

    @Test func theEpochChangesOnlyWhenTheDataVersionDoes() {
        var epoch = ReadEpoch(interval: .zero)
        epoch.observed(now: start, generation: 0, dataVersion: 7)
        let before = epoch.epoch
        #expect(epoch.needsCheck(now: start, generation: 0), "a zero interval asks every time")
        epoch.observed(now: start, generation: 0, dataVersion: 7)
        #expect(epoch.epoch == before, "same data, same epoch: cached answers stay valid")
        // Another process wrote.
        epoch.observed(now: start, generation: 0, dataVersion: 9)
        #expect(epoch.epoch == before + 1)
    }

    @Test func aForgottenVersionIsAskedAgain() {
        var epoch = ReadEpoch(interval: .seconds(10))
        epoch.observed(now: start, generation: 0, dataVersion: 1)
        epoch.forget()
        #expect(epoch.needsCheck(now: start, generation: 0))
    }
}
