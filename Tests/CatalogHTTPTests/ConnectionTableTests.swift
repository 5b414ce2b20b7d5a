import Testing

@testable import CatalogHTTP

/// The rules for closing late and idle connections, without sockets.
@Suite struct ConnectionTableTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func limitsAreSharedAmongWorkersWithAReserve() {
        let table = ConnectionTable(connectionLimit: 1024, workers: 2, headerTimeout: .seconds(10))
        #expect(table.workerLimit == 512)
        #expect(table.highWater == 480)
        let small = ConnectionTable(connectionLimit: 4, workers: 1, headerTimeout: .seconds(10))
        #expect(small.highWater == 3)
    }

    @Test func aboveTheHighWaterTheOldestWaitingConnectionOfThatWorkerGoes() {
        var table = ConnectionTable(connectionLimit: 4, workers: 1, headerTimeout: .seconds(10))
        let first = table.opened(socket: 10, worker: 1, at: at(0))
        let second = table.opened(socket: 11, worker: 1, at: at(1))
        table.requestStarted(first.id)  // busy: never closed to make room
        #expect(table.opened(socket: 12, worker: 1, at: at(2)).close.isEmpty)
        #expect(table.opened(socket: 20, worker: 2, at: at(2)).close.isEmpty, "another worker has its own share")
        let fourth = table.opened(socket: 13, worker: 1, at: at(3))
        #expect(fourth.close == [11], "the oldest waiting one, not the busy one")
        #expect(table.openCount(worker: 1) == 3)
        table.closed(second.id)
        #expect(table.openCount(worker: 1) == 3, "closing it was already counted")
        #expect(table.opened(socket: 14, worker: 1, at: at(4)).close == [12])
    }

    @Test func anIdleKeepAliveConnectionWaitsFromItsLastAnswer() {
        var table = ConnectionTable(connectionLimit: 4, workers: 1, headerTimeout: .seconds(10))
        let old = table.opened(socket: 10, worker: 1, at: at(0))
        let recent = table.opened(socket: 11, worker: 1, at: at(1))
        table.requestStarted(old.id)
        table.requestFinished(old.id, at: at(5))
        _ = table.opened(socket: 12, worker: 1, at: at(6))
        #expect(table.opened(socket: 13, worker: 1, at: at(7)).close == [11])
        _ = recent
    }

    @Test func headsThatTakeTooLongAreClosedOnce() {
        var table = ConnectionTable(connectionLimit: 100, workers: 1, headerTimeout: .seconds(10))
        let slow = table.opened(socket: 10, worker: 1, at: at(0))
        let busy = table.opened(socket: 11, worker: 1, at: at(0))
        let late = table.opened(socket: 12, worker: 1, at: at(3))
        table.requestStarted(busy.id)
        #expect(table.expired(at: at(9.9)).isEmpty)
        #expect(table.expired(at: at(10)) == [10])
        #expect(table.expired(at: at(11)).isEmpty, "already being closed")
        #expect(table.expired(at: at(13)) == [12])
        table.requestFinished(busy.id, at: at(12))
        #expect(table.expired(at: at(21.9)).isEmpty)
        #expect(table.expired(at: at(22)) == [11])
        for id in [slow.id, busy.id, late.id] { table.closed(id) }
        #expect(table.entries.isEmpty)
        #expect(table.openCount(worker: 1) == 0)
    }
}
