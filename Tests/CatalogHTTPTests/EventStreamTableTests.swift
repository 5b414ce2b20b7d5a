import Testing

@testable import CatalogHTTP

/// The caps on open event streams, without sockets.
@Suite struct EventStreamTableTests {
    @Test func theTotalCapComesBeforeTheClientsCap() {
        var table = EventStreamTable(maxTotal: 3, maxPerClient: 2, connectionLimit: 1024)
        #expect(table.admit("a") == .admitted)
        #expect(table.admit("a") == .admitted)
        #expect(table.admit("a") == .overClient)
        #expect(table.admit("b") == .admitted)
        #expect(table.admit("b") == .overTotal)
        #expect(table.admit("c") == .overTotal)
        #expect(table.total == 3)
        table.release("a")
        #expect(table.count("a") == 1)
        #expect(table.admit("c") == .admitted)
        table.release("nobody")
        #expect(table.total == 3, "a client with nothing open changes nothing")
    }

    @Test func streamsLeaveAQuarterOfTheConnectionsToEveryoneElse() {
        #expect(EventStreamTable(maxTotal: 1000, maxPerClient: 8, connectionLimit: 1024).maxTotal == 768)
        #expect(EventStreamTable(maxTotal: 100, maxPerClient: 8, connectionLimit: 1024).maxTotal == 100)
        #expect(EventStreamTable(maxTotal: 1000, maxPerClient: 8, connectionLimit: 4000).maxTotal == 1000)
    }

    @Test func theRegistryRefusesStreamsOnceStopping() {
        let registry = EventStreamRegistry(
            maxTotal: 10, maxPerClient: 10, connectionLimit: 100, heartbeatInterval: .seconds(15))
        let stream = EventStream()
        #expect(registry.admit(stream, client: "a") == .admitted)
        #expect(registry.openCount == 1)
        registry.stop()
        #expect(stream.closeReason == .serverStopping)
        #expect(registry.admit(EventStream(), client: "a") == .stopping)
        registry.release(stream)
        #expect(registry.openCount == 0)
        registry.join()
    }
}
