import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogHTTP

/// A client that sends expensive requests is slowed before others are: its CPU time is charged
/// to its address, and past its budget it waits on a low-priority thread of its own.
@Suite struct ClientCostLedgerTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let now = Mutex<Double>(100)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
        var closure: ClientCostLedger.Clock { { [self] in now.withLock { $0 } } }
    }

    @Test func debtIsPaidOffAtTheBudgetsRate() {
        let clock = ManualClock()
        let ledger = ClientCostLedger(
            budget: .init(perSecond: .milliseconds(100), burst: .milliseconds(200)), clock: clock.closure)
        ledger.charge("192.0.2.1", cpu: .milliseconds(150))
        #expect(!ledger.isOverBudget("192.0.2.1"))
        ledger.charge("192.0.2.1", cpu: .milliseconds(100))
        #expect(ledger.isOverBudget("192.0.2.1"), "250 ms owed, 200 allowed")
        #expect(!ledger.isOverBudget("192.0.2.2"), "another client owes nothing")
        #expect(ledger.secondsUntilWithinBudget("192.0.2.1") == 1)
        clock.advance(0.4)
        #expect(ledger.isOverBudget("192.0.2.1"), "40 ms paid off, 210 owed")
        clock.advance(0.2)
        #expect(!ledger.isOverBudget("192.0.2.1"), "60 ms more paid off, 190 owed")
        ledger.charge("192.0.2.1", cpu: .seconds(2))
        #expect(ledger.secondsUntilWithinBudget("192.0.2.1") == 20, "2,190 owed: 1,990 over, 100 a second")
    }

    /// A client that owes little is measured by elapsed time (no system call), one that owes an
    /// eighth of its burst by its thread's CPU time, until it has paid it off.
    @Test func clientsInDebtAreMeasuredByTheirCPUTime() {
        let clock = ManualClock()
        let ledger = ClientCostLedger(
            budget: .init(perSecond: .milliseconds(100), burst: .milliseconds(800)), clock: clock.closure)
        #expect(!ledger.meter(for: "192.0.2.1").precise, "a client never seen")
        ledger.charge("192.0.2.1", cpu: .milliseconds(90))
        #expect(!ledger.meter(for: "192.0.2.1").precise, "90 ms owed, under an eighth of 800")
        ledger.charge("192.0.2.1", cpu: .milliseconds(20))
        #expect(ledger.meter(for: "192.0.2.1").precise, "110 ms owed")
        #expect(!ledger.meter(for: "192.0.2.2").precise, "another client owes nothing")
        #expect(!ledger.meter(for: "-").precise, "an unknown address is never charged")
        clock.advance(0.2)
        #expect(!ledger.meter(for: "192.0.2.1").precise, "20 ms paid off, 90 owed")
        // Elapsed time is not less than the CPU time the thread spent meanwhile: the CPU time is
        // read inside the meter's interval, and the two clocks may run apart by a slewed
        // fraction of a percent.
        let meter = ledger.meter(for: "192.0.2.1")
        #expect(!meter.precise)
        let start = ClientCostLedger.threadCPUTime()
        var counter = 0
        while ClientCostLedger.threadCPUTime() - start < .milliseconds(5) { counter &+= 1 }
        let cpu = ClientCostLedger.threadCPUTime() - start
        let elapsed = meter.elapsed
        #expect(elapsed >= cpu - cpu / 100, "\(counter) rounds")
    }

    @Test func unknownAddressesAreNeverSlowed() {
        let ledger = ClientCostLedger(budget: .init(perSecond: .milliseconds(1), burst: .milliseconds(1)))
        ledger.charge("-", cpu: .seconds(10))
        ledger.charge("", cpu: .seconds(10))
        #expect(!ledger.isOverBudget("-"))
        #expect(ledger.clientCount == 0)
    }

    @Test func theTableOfClientsIsBounded() {
        let clock = ManualClock()
        let ledger = ClientCostLedger(
            budget: .init(perSecond: .milliseconds(10), burst: .milliseconds(100)), capacity: 64, clock: clock.closure)
        ledger.charge("198.51.100.1", cpu: .seconds(50))
        for index in 0..<10_000 {
            ledger.charge("10.0.\(index / 256).\(index % 256)", cpu: .milliseconds(1))
        }
        #expect(ledger.clientCount <= 64)
        #expect(ledger.isOverBudget("198.51.100.1"), "the client that owes most is kept")
    }

    // MARK: - Against a live server

    static func makeServer(
        _ configure: (inout ServerConfiguration) -> Void, block: DispatchSemaphore? = nil,
        started: DispatchSemaphore? = nil
    ) throws -> HTTPServer {
        var routes = RouterBuilder()
        routes.get("/spin") { _, _ in
            // Burns 30 ms of this thread's CPU time.
            let start = ClientCostLedger.threadCPUTime()
            var counter = 0
            while ClientCostLedger.threadCPUTime() - start < .milliseconds(30) { counter &+= 1 }
            return .text("spun \(counter > 0)")
        }
        routes.get("/where") { _, _ in .text(Thread.current.name ?? "") }
        routes.get("/block") { _, _ in
            started?.signal()
            block?.wait()
            return .text("released")
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        let server = HTTPServer(
            configuration: configuration, responder: routes.build().wrapped(in: [ErrorMiddleware(log: { _ in })]),
            log: { _ in })
        try server.start()
        return server
    }

    static func get(_ target: String, from source: String, port: Int) throws -> RawClient.Reply {
        let client = RawClient(port: port)
        let socket = try client.connect(from: source)
        defer { close(socket) }
        RawClient.sendAll(Array("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), on: socket)
        return RawClient.parse(client.readAll(socket, timeout: 30))
    }

    @Test func aClientOverItsBudgetIsServedBehindTheOthers() throws {
        let server = try Self.makeServer {
            $0.clientBudget = .init(perSecond: .milliseconds(1), burst: .milliseconds(10))
        }
        defer { server.shutdown() }
        let before = try Self.get("/where", from: "127.0.0.2", port: server.port)
        // libmicrohttpd names its worker threads; the slow lane's thread is one of ours.
        #expect(before.status == 200 && before.text.hasPrefix("MHD-worker"), "\(before.text)")
        #expect(try Self.get("/spin", from: "127.0.0.2", port: server.port).status == 200)
        // 30 ms owed, 10 allowed, paid off at 1 ms a second: this client now waits on the slow lane.
        #expect(server.core.ledger?.isOverBudget("127.0.0.2") == true)
        let slowed = server.core.ledger?.slowedRequests ?? 0
        let after = try Self.get("/where", from: "127.0.0.2", port: server.port)
        #expect(after.status == 200)
        #expect(!after.text.hasPrefix("MHD-worker"), "\(after.text)")
        #expect(server.core.ledger?.slowedRequests == slowed + 1)
        // Everybody else is still answered by the workers.
        let other = try Self.get("/where", from: "127.0.0.3", port: server.port)
        #expect(other.status == 200 && other.text.hasPrefix("MHD-worker"), "\(other.text)")
    }

    @Test func aFullSlowLaneAnswers429WithRetryAfter() throws {
        let block = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let server = try Self.makeServer(
            {
                $0.clientBudget = .init(perSecond: .milliseconds(1), burst: .milliseconds(10))
                $0.slowLaneQueueLimit = 0
            }, block: block, started: started)
        defer { server.shutdown() }
        #expect(try Self.get("/spin", from: "127.0.0.4", port: server.port).status == 200)
        // The slow lane's one thread is taken by this client's blocked request …
        let blocked = Thread { _ = try? Self.get("/block", from: "127.0.0.4", port: server.port) }
        blocked.start()
        started.wait()
        // … so its next request is refused at once, saying when to come back.
        let refused = try Self.get("/where", from: "127.0.0.4", port: server.port)
        #expect(refused.status == 429)
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1, "\(refused.headers)")
        #expect(refused.text.contains("too_many_requests"))
        // Another client is not affected.
        #expect(try Self.get("/where", from: "127.0.0.5", port: server.port).status == 200)
        block.signal()
    }

    @Test func probesAreNeverSlowedNorCharged() throws {
        var routes = RouterBuilder()
        routes.get("/spin") { _, _ in
            let start = ClientCostLedger.threadCPUTime()
            while ClientCostLedger.threadCPUTime() - start < .milliseconds(30) {}
            return .text("spun")
        }
        routes.get("/healthz", options: RouteOptions(rateClass: .probe)) { _, _ in .text(Thread.current.name ?? "") }
        let router = routes.build()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.routeOptions = { router.options(method: $0, segments: $1) }
        configuration.clientBudget = .init(perSecond: .milliseconds(1), burst: .milliseconds(10))
        let server = HTTPServer(configuration: configuration, responder: router, log: { _ in })
        try server.start()
        defer { server.shutdown() }
        #expect(try Self.get("/spin", from: "127.0.0.6", port: server.port).status == 200)
        #expect(server.core.ledger?.isOverBudget("127.0.0.6") == true)
        let slowed = server.core.ledger?.slowedRequests ?? 0
        // A health probe from the throttled address is still answered at once by a worker.
        let probe = try Self.get("/healthz", from: "127.0.0.6", port: server.port)
        #expect(probe.status == 200 && probe.text.hasPrefix("MHD-worker"), "\(probe.text)")
        #expect(server.core.ledger?.slowedRequests == slowed)
    }
}
