import CatalogClient
import Foundation
import Testing

/// The fault run's check (``FaultLedger/verify(_:start:initial:)``) finds what it is there to
/// find: a missing, repeated, reordered, foreign or altered change, and a batch in part; and it
/// lets an unanswered write that committed through.
@Suite struct FaultLedgerTests {
    static func put(_ id: String, _ token: String, price: Decimal = 1) -> SentWrite.Part {
        .upsert(id: id, token: token, title: "Title \(id)", price: price, categories: ["Soup"])
    }

    static func change(_ number: Int, _ id: String, _ token: String, price: Decimal = 1) -> CatalogChange {
        CatalogChange(
            number: number, kind: .upsert, id: id,
            record: Record(id: id, title: "Title \(id)", subtitle: token, categories: ["Soup"], price: price))
    }

    /// Writer 0: x put (acknowledged as 11), y put (no answer), x deleted (13); writer 1: a batch
    /// of z and w (no answer).
    static func ledger() -> FaultLedger {
        let ledger = FaultLedger(owners: ["x": 0, "y": 0, "z": 1, "w": 1], writers: 2)
        let first = ledger.begin(SentWrite(server: "A", parts: [put("x", "t1")]), by: 0)
        ledger.acknowledge(first, by: 0, numbers: [11], record: change(11, "x", "t1").record)
        _ = ledger.begin(SentWrite(server: "A", parts: [put("y", "t2")]), by: 0)
        let third = ledger.begin(SentWrite(server: "B", parts: [.delete(id: "x")]), by: 0)
        ledger.acknowledge(third, by: 0, numbers: [13], record: nil)
        _ = ledger.begin(SentWrite(server: "A", parts: [put("z", "t3"), put("w", "t4")]), by: 1)
        return ledger
    }

    static let delete13 = CatalogChange(number: 13, kind: .delete, id: "x")

    @Test func acknowledgedChangesWithAnUnansweredOneThatCommittedPass() {
        let verdict = Self.ledger().verify(
            [Self.change(11, "x", "t1"), Self.change(12, "y", "t2"), Self.delete13], start: 10,
            initial: ["x": Record(id: "x", title: "Old")])
        #expect(verdict.problems.isEmpty, "\(verdict.problems)")
        #expect(verdict.acknowledged == 2 && verdict.delivered == 3 && verdict.unacknowledgedDelivered == 1)
        #expect(verdict.records.keys.sorted() == ["y"])
        // The unanswered batch committed too: whole, after the rest.
        let batch = Self.ledger().verify(
            [
                Self.change(11, "x", "t1"), Self.change(12, "y", "t2"), Self.delete13, Self.change(14, "z", "t3"),
                Self.change(15, "w", "t4"),
            ], start: 10, initial: [:])
        #expect(batch.problems.isEmpty, "\(batch.problems)")
        #expect(batch.unacknowledgedDelivered == 3 && batch.records.keys.sorted() == ["w", "y", "z"])
        // A number other than the one acknowledged.
        let renumbered = Self.ledger().verify(
            [Self.change(11, "x", "t1"), CatalogChange(number: 12, kind: .delete, id: "x")], start: 10, initial: [:])
        #expect(!renumbered.problems.isEmpty)
    }

    @Test(arguments: [
        ("missing", [11]),
        ("repeated", [11, 11, 12, 13]),
        ("reordered", [12, 11, 13]),
    ])
    func aChangeMissingRepeatedOrOutOfOrderIsFound(_ name: String, _ numbers: [Int]) {
        let all = [11: Self.change(11, "x", "t1"), 12: Self.change(12, "y", "t2"), 13: Self.delete13]
        let verdict = Self.ledger().verify(numbers.map { all[$0]! }, start: 10, initial: [:])
        #expect(!verdict.problems.isEmpty, "\(name)")
        #expect(verdict.missing + verdict.duplicated > 0 || name == "reordered", "\(name)")
    }

    @Test func aChangeNoWriterSentOrNotAsSentIsFound() {
        let foreign = Self.ledger().verify(
            [Self.change(11, "x", "t1"), Self.change(12, "q", "t9"), Self.delete13], start: 10, initial: [:])
        #expect(foreign.problems.count == 1, "\(foreign.problems)")
        let altered = Self.ledger().verify(
            [Self.change(11, "x", "t1", price: 2), Self.delete13], start: 10, initial: [:])
        #expect(!altered.problems.isEmpty)
        let unsent = Self.ledger().verify(
            [Self.change(11, "x", "t1"), Self.change(12, "y", "t7"), Self.delete13], start: 10, initial: [:])
        #expect(unsent.problems.count == 1, "\(unsent.problems)")
    }

    @Test func aBatchThatArrivedInPartIsFound() {
        let verdict = Self.ledger().verify(
            [Self.change(11, "x", "t1"), Self.delete13, Self.change(14, "z", "t3")], start: 10, initial: [:])
        #expect(verdict.problems.contains { $0.contains("arrived in part") }, "\(verdict.problems)")
    }
}
