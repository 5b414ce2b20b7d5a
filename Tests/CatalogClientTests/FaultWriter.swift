import CatalogClient
import CatalogJSON
import CatalogTestSupport
import Foundation

/// The server a writer of the fault run sends to: the one running now, none while it is killed
/// and started again.
final class ServerSlot: @unchecked Sendable {
    // @unchecked: `current` and `closed` are only touched while `condition` is held.
    private let condition = NSCondition()
    private var current: ServeProcess?
    private var closed = false
    let name: String

    init(_ name: String, _ server: ServeProcess) {
        self.name = name
        current = server
    }

    /// The server running now; waits while there is none. Nil once the slot is closed.
    func server() -> ServeProcess? {
        condition.lock()
        defer { condition.unlock() }
        while current == nil && !closed { condition.wait() }
        return closed ? nil : current
    }

    /// Takes the server out before it is killed: writers wait from now on.
    func takeDown() -> ServeProcess? {
        condition.withLock {
            defer { current = nil }
            return current
        }
    }

    /// Puts a (new) server in.
    func bringUp(_ server: ServeProcess) {
        condition.withLock {
            current = server
            condition.broadcast()
        }
    }

    /// Ends every wait: the run is over.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Waits until the server is no longer `server` (it was killed), at most `timeout` seconds.
    func waitPast(_ server: ServeProcess, timeout: TimeInterval = 60) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while current === server && !closed {
            if !condition.wait(until: deadline) { return }
        }
    }
}

/// One writer of the fault run: a thread that changes its own records through one server, one
/// request at a time, until the ledger says stop. Puts (whole records), merge patches, deletes
/// and small batches, chosen by a seeded random stream; each request is noted in the ledger before
/// it is sent and its answer after. A record whose last request got no answer is only put again
/// (it may or may not exist) until a write of it is acknowledged.
struct FaultWriter: Sendable {
    let index: Int
    let slot: ServerSlot
    let ledger: FaultLedger
    let token: String
    let catalog: String
    /// The records it changes: some the catalog had, some new.
    let ids: [String]
    /// Whether each of `ids` exists at the start.
    let existing: Set<String>
    let words: [String]
    let categories: [String]
    let seed: UInt64

    private enum Known { case present, absent, unknown }

    /// Writes until the ledger stops it.
    func run() {
        var random = OfflineComparison.Random(state: seed)
        var known: [String: Known] = [:]
        for id in ids { known[id] = existing.contains(id) ? .present : .absent }
        var number = 0
        while !ledger.isStopped, let server = slot.server() {
            number += 1
            let (request, parts) = nextRequest(&random, known: known, number: number)
            // Nothing is noted for a connection refused: nothing was sent.
            guard let socket = try? server.client.connect() else {
                if slot.name == "B" { ledger.problem("writer \(index): B refused a connection") }
                slot.waitPast(server)
                continue
            }
            let at = ledger.begin(SentWrite(server: slot.name, parts: parts), by: index)
            RawClient.sendAll(request, on: socket)
            let reply = RawClient.parse(RawClient(port: server.port).readAll(socket, timeout: 60))
            close(socket)
            guard (200..<300).contains(reply.status) else {
                for part in parts { known[part.id] = .unknown }
                if reply.status == 0 {
                    ledger.noAnswer()
                    if slot.name == "B" { ledger.problem("writer \(index): B did not answer \(parts)") }
                } else {
                    ledger.problem("writer \(index): \(parts) answered \(reply.status): \(reply.text.prefix(300))")
                }
                continue
            }
            guard let last = reply.headers["catalog-change"].flatMap({ Int($0) }) else {
                ledger.problem("writer \(index): \(parts) answered \(reply.status) without Catalog-Change")
                continue
            }
            var record: Record?
            if parts.count == 1, case .upsert = parts[0] {
                record = try? JSONDecoder().decode(Record.self, from: Data(reply.body))
                if record.map({ !parts[0].matches(CatalogChange(number: last, kind: .upsert, id: $0.id, record: $0)) })
                    ?? true
                {
                    ledger.problem("writer \(index): \(parts) answered a record other than the one sent: \(reply.text)")
                }
            } else if parts.count > 1 {
                let outcome = try? JSONDecoder().decode(BatchOutcome.self, from: Data(reply.body))
                if outcome?.change != last || outcome?.results.map(\.id) != parts.map(\.id)
                    || outcome?.results.contains(where: { $0.result == .unchanged }) != false
                {
                    ledger.problem("writer \(index): batch \(parts) answered \(reply.text)")
                }
            }
            // Each changed record of a request takes the next number: a batch's end at `last`.
            ledger.acknowledge(
                at, by: index, numbers: Array((last - parts.count + 1)...last), record: record)
            for part in parts {
                if case .delete = part { known[part.id] = .absent } else { known[part.id] = .present }
            }
        }
    }

    /// The next request's bytes and its changes.
    private func nextRequest(_ random: inout OfflineComparison.Random, known: [String: Known], number: Int)
        -> ([UInt8], [SentWrite.Part])
    {
        let path = "/api/v1/catalogs/\(catalog)/items"
        if random.chance(15) {
            // A batch of two or three records: deletes of records known to exist, upserts.
            var chosen: [String] = []
            while chosen.count < 2 + random.below(2) {
                let id = random.pick(ids)
                if !chosen.contains(id) { chosen.append(id) }
            }
            var parts: [SentWrite.Part] = []
            var operations: [String] = []
            for (position, id) in chosen.enumerated() {
                if known[id] == .present && random.chance(40) {
                    parts.append(.delete(id: id))
                    operations.append(#"{"delete":\#(Self.quoted(id))}"#)
                } else {
                    let (part, json) = upsert(id, token: "w\(index)-\(number)-\(position)", &random)
                    parts.append(part)
                    operations.append(#"{"upsert":\#(json)}"#)
                }
            }
            return (message("POST", path, body: "[" + operations.joined(separator: ",") + "]"), parts)
        }
        let id = random.pick(ids)
        let item = "\(path)/\(id)"
        let token = "w\(index)-\(number)"
        let choice = known[id] == .present ? random.below(100) : 0
        switch choice {
        case 0..<40:
            let (part, json) = upsert(id, token: token, &random)
            return (message("PUT", item, body: json), [part])
        case 40..<75:
            let price = Self.price(&random)
            return (
                message(
                    "PATCH", item, body: #"{"subtitle":\#(Self.quoted(token)),"price":\#(price)}"#,
                    type: "application/merge-patch+json"),
                [.upsert(id: id, token: token, title: nil, price: Decimal(string: price)!, categories: nil)]
            )
        default:
            return (message("DELETE", item, body: nil), [.delete(id: id)])
        }
    }

    /// A whole record of `id` as JSON, with `token` for its subtitle.
    private func upsert(_ id: String, token: String, _ random: inout OfflineComparison.Random) -> (
        SentWrite.Part, String
    ) {
        let first = random.pick(words)
        let title = first.prefix(1).uppercased() + first.dropFirst() + " " + random.pick(words)
        let price = Self.price(&random)
        let categories = [random.pick(categories)]
        let json =
            #"{"id":\#(Self.quoted(id)),"title":\#(Self.quoted(title)),"subtitle":\#(Self.quoted(token)),"#
            + #""price":\#(price),"currency":"EUR","categories":[\#(Self.quoted(categories[0]))]}"#
        return (
            .upsert(id: id, token: token, title: title, price: Decimal(string: price)!, categories: categories), json
        )
    }

    private static func price(_ random: inout OfflineComparison.Random) -> String {
        let cents = random.below(100_000)
        return "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
    }

    private static func quoted(_ text: String) -> String {
        var output = JSONOutput(capacity: text.utf8.count + 2)
        output.string(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The request's bytes.
    private func message(_ method: String, _ path: String, body: String?, type: String = "application/json")
        -> [UInt8]
    {
        let bytes = Array((body ?? "").utf8)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        head += "Authorization: Bearer \(token)\r\n"
        if body != nil { head += "Content-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n" }
        return Array((head + "\r\n").utf8) + bytes
    }
}
