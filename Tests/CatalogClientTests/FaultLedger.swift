import CatalogClient
import Foundation

/// One request a writer of the fault run sent: the changes it asked for, in order, and what the
/// server answered.
struct SentWrite: Sendable {
    /// One change of the request.
    enum Part: Sendable, Equatable, CustomStringConvertible {
        /// A record written (`PUT`, a batch's upsert) or patched (`PATCH`: `title` and `categories`
        /// nil, they stay as they were). `token` is its subtitle, unique in the run.
        case upsert(id: String, token: String, title: String?, price: Decimal, categories: [String]?)
        case delete(id: String)

        var id: String {
            switch self {
            case .upsert(let id, _, _, _, _), .delete(let id): id
            }
        }

        var description: String {
            switch self {
            case .upsert(let id, let token, _, _, _): "upsert \(id) (\(token))"
            case .delete(let id): "delete \(id)"
            }
        }

        /// Whether `change` is this change: its kind, its record's id, and the values it wrote.
        func matches(_ change: CatalogChange) -> Bool {
            switch self {
            case .delete(let id):
                return change.kind == .delete && change.id == id
            case .upsert(let id, let token, let title, let price, let categories):
                guard change.kind == .upsert, change.id == id, let record = change.record else { return false }
                return record.id == id && record.subtitle == token && record.price == price
                    && (title.map { $0 == record.title } ?? true)
                    && (categories.map { $0 == record.categories } ?? true)
            }
        }
    }

    /// The server it went to ("A", the one killed again and again, or "B").
    var server: String
    var parts: [Part]
    /// The change numbers the server answered for the parts, nil while (or when) no answer came.
    var numbers: [Int]?
    /// The record the server answered for a single upsert (`PUT`, `PATCH`).
    var answered: Record?
}

/// What the writers of the fault run sent and what the servers acknowledged, from several
/// threads; and the check of a reader's changes against it (``verify(_:start:initial:)``).
final class FaultLedger: @unchecked Sendable {
    // @unchecked: every stored variable is only touched while `condition` is held.
    private let condition = NSCondition()
    private var writes: [[SentWrite]]
    private var acknowledged: [String: Int] = [:]
    private var unanswered = 0
    private var stopped = false
    private var problems: [String] = []
    /// Which writer owns each record (each writer changes only its own).
    let owners: [String: Int]

    init(owners: [String: Int], writers: Int) {
        self.owners = owners
        writes = Array(repeating: [], count: writers)
    }

    /// Notes a request about to be sent; its index among the writer's.
    func begin(_ write: SentWrite, by writer: Int) -> Int {
        condition.withLock {
            writes[writer].append(write)
            return writes[writer].count - 1
        }
    }

    /// Notes the server's acknowledgement of request `index` of `writer`.
    func acknowledge(_ index: Int, by writer: Int, numbers: [Int], record: Record?) {
        condition.withLock {
            writes[writer][index].numbers = numbers
            writes[writer][index].answered = record
            acknowledged[writes[writer][index].server, default: 0] += 1
            condition.broadcast()
        }
    }

    /// Notes a request that got no answer (its server was killed while it was on its way).
    func noAnswer() {
        condition.withLock { unanswered += 1 }
    }

    /// Notes something that must not happen.
    func problem(_ text: String) {
        condition.withLock {
            problems.append(text)
            condition.broadcast()
        }
    }

    /// Waits until `server` has acknowledged `count` requests since the last ``resetCount(of:)``;
    /// false after `timeout` seconds, or once a problem was noted.
    func waitForAcknowledged(by server: String, count: Int, timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while acknowledged[server, default: 0] < count && problems.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        return acknowledged[server, default: 0] >= count
    }

    func resetCount(of server: String) {
        condition.withLock { acknowledged[server] = 0 }
    }

    /// Tells the writers to stop after their current request.
    func stop() {
        condition.withLock { stopped = true }
    }

    var isStopped: Bool { condition.withLock { stopped } }
    var notedProblems: [String] { condition.withLock { problems } }
    var unansweredCount: Int { condition.withLock { unanswered } }
    var sent: [[SentWrite]] { condition.withLock { writes } }

    /// What a reader's changes say beside what the writers sent.
    struct Verdict {
        /// Changes acknowledged to a writer.
        var acknowledged = 0
        /// Changes the reader got.
        var delivered = 0
        /// Change numbers the reader got more than once.
        var duplicated = 0
        /// Acknowledged changes the reader did not get, or got out of their order.
        var missing = 0
        /// Changes of requests that got no answer (allowed: each whole and as sent).
        var unacknowledgedDelivered = 0
        /// Everything wrong, described.
        var problems: [String] = []
        /// The records after the changes, by id.
        var records: [String: Record] = [:]
    }

    /// Checks `changes` (a reader's, from change `start` on): numbers that go up by one from
    /// `start`, none twice; each change one the writers sent, with the values sent (an
    /// acknowledged one with its acknowledged number and record); every acknowledged change
    /// present; a batch whole or not at all; each writer's changes in the order it sent them.
    /// `initial` is the catalog at `start`; the verdict's records are the catalog after the changes.
    func verify(_ changes: [CatalogChange], start: Int, initial: [String: Record]) -> Verdict {
        let writes = sent
        var verdict = Verdict()
        verdict.records = initial
        verdict.delivered = changes.count
        verdict.acknowledged = writes.joined().reduce(0) { $0 + ($1.numbers?.count ?? 0) }
        var counts: [Int: Int] = [:]
        for change in changes { counts[change.number, default: 0] += 1 }
        verdict.duplicated = counts.values.filter { $0 > 1 }.count
        // Per writer: the request its next change must come from (or a later one, when the ones
        // between got no answer and did not commit), and how many parts of it came so far.
        var next = Array(repeating: 0, count: writes.count)
        var partsSeen = Array(repeating: 0, count: writes.count)
        var expected = start + 1
        for change in changes {
            if change.number != expected {
                verdict.problems.append("change \(change.number) came where \(expected) was due")
            }
            expected = change.number + 1
            switch change.kind {
            case .upsert: if let record = change.record { verdict.records[record.id] = record }
            case .delete: if let id = change.id { verdict.records[id] = nil }
            case .definition, .reload: verdict.problems.append("change \(change.number) is a \(change.kind)")
            }
            guard let id = change.id, let writer = owners[id] else {
                verdict.problems.append(
                    "change \(change.number) (\(change.kind) \(change.id ?? "-")): no writer sent it")
                continue
            }
            let mine = writes[writer]
            if partsSeen[writer] > 0 {
                // In the middle of a batch: its next part, or the batch was not whole.
                let write = mine[next[writer]]
                let part = write.parts[partsSeen[writer]]
                if !part.matches(change) {
                    verdict.problems.append(
                        "change \(change.number): \(part) of writer \(writer)'s batch was due, got \(change.kind) \(id)"
                    )
                }
                check(change, against: write, part: partsSeen[writer], into: &verdict)
                partsSeen[writer] += 1
                if partsSeen[writer] == write.parts.count {
                    next[writer] += 1
                    partsSeen[writer] = 0
                }
                continue
            }
            var index = next[writer]
            while index < mine.count, !mine[index].parts[0].matches(change) { index += 1 }
            guard index < mine.count else {
                verdict.problems.append(
                    "change \(change.number) (\(change.kind) \(id)): nothing writer \(writer) sent after its request \(next[writer]) made it"
                )
                continue
            }
            for skipped in mine[next[writer]..<index] where skipped.numbers != nil {
                verdict.missing += skipped.parts.count
                verdict.problems.append(
                    "acknowledged change(s) \(skipped.numbers!) (\(skipped.parts)) missing before \(change.number)")
            }
            check(change, against: mine[index], part: 0, into: &verdict)
            next[writer] = index
            partsSeen[writer] = 1
            if mine[index].parts.count == 1 {
                next[writer] += 1
                partsSeen[writer] = 0
            }
        }
        for (writer, mine) in writes.enumerated() {
            if partsSeen[writer] > 0 {
                verdict.problems.append("writer \(writer)'s batch \(mine[next[writer]].parts) arrived in part")
            }
            for write in mine[(next[writer] + (partsSeen[writer] > 0 ? 1 : 0))...] where write.numbers != nil {
                verdict.missing += write.parts.count
                verdict.problems.append("acknowledged change(s) \(write.numbers!) (\(write.parts)) never arrived")
            }
        }
        return verdict
    }

    /// Checks the number and record of `change`, part `part` of `write`, as acknowledged.
    private func check(_ change: CatalogChange, against write: SentWrite, part: Int, into verdict: inout Verdict) {
        guard let numbers = write.numbers else {
            verdict.unacknowledgedDelivered += 1
            return
        }
        if numbers[part] != change.number {
            verdict.problems.append(
                "\(write.parts[part]) was acknowledged as change \(numbers[part]), arrived as \(change.number)")
        }
        if let answered = write.answered, answered != change.record {
            verdict.problems.append("change \(change.number): the record differs from the one the write answered")
        }
    }
}
