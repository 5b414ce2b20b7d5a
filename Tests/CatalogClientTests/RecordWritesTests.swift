import CatalogClient
import Foundation
import Testing

/// Changing records through the client: `put`, `patch`, `delete`, `batch` and `record`, their
/// ETags and change numbers, and the typed errors of a lost race (412) and of bad values (422).
@Suite struct RecordWritesTests {
    let live: LiveServer
    let admin: CatalogClient

    init() throws {
        live = try LiveServer()
        admin = live.client(token: live.adminToken)
    }

    @Test func putCreatesReplacesAndAnswersTheStoredRecord() async throws {
        let before = try await admin.record("p001", in: "products").change
        let soup = Record(
            id: "z-gulyas", title: "Gulyásleves", categories: ["Levesek"], price: Decimal(string: "12.50"))
        let created = try await admin.put(soup, in: "cookbook", createOnly: true)
        #expect(created.record.title == "Gulyásleves" && created.record.section?.hasPrefix("G") == true)
        #expect(created.etag.hasPrefix("\"") && created.etag.hasSuffix("\""))
        // What the server stores and serves, with the same ETag and change number.
        let read = try await admin.record("z-gulyas", in: "cookbook")
        #expect(read == created)
        #expect(try await admin.item("z-gulyas", of: "cookbook") == created.record)
        var changed = created.record
        changed.subtitle = "Mari néni receptje"
        let replaced = try await admin.put(changed, in: "cookbook", ifMatch: created.etag)
        #expect(replaced.etag != created.etag && replaced.change == created.change + 1)
        #expect(replaced.record.subtitle == "Mari néni receptje")
        // The same content again changes nothing: the same ETag, no new change number.
        let again = try await admin.put(changed, in: "cookbook")
        #expect(again == replaced)
        // This client's own cached read shows the new record at once.
        #expect(try await admin.item("z-gulyas", of: "cookbook").subtitle == "Mari néni receptje")
        // Change numbers are per catalog.
        #expect(try await admin.record("p001", in: "products").change == before)
    }

    @Test func aLostRaceIsAPreconditionFailureWithTheCurrentETag() async throws {
        let first = try await admin.record("p002", in: "products")
        var changed = first.record
        changed.title += " II"
        let second = try await admin.put(changed, in: "products", ifMatch: first.etag)
        var failures: [CatalogClientError] = []
        do { try await admin.put(first.record, in: "products", ifMatch: first.etag) } catch { failures.append(error) }
        do { try await admin.put(first.record, in: "products", createOnly: true) } catch { failures.append(error) }
        do {
            try await admin.patch("p002", in: "products", changes: ["subtitle": .text("x")], ifMatch: first.etag)
        } catch { failures.append(error) }
        do { try await admin.delete("p002", in: "products", ifMatch: first.etag) } catch { failures.append(error) }
        #expect(failures.count == 4)
        for failure in failures {
            #expect(failure.code == .preconditionFailed && failure.status == 412, "\(failure.debugDescription)")
            #expect(failure.apiCode == "precondition_failed")
            #expect(failure.currentETag == second.etag)
        }
        // Nothing of it was applied.
        #expect(try await admin.record("p002", in: "products") == second)
        // A record that does not exist has no current ETag.
        do {
            try await admin.put(Record(id: "p-none", title: "None"), in: "products", ifMatch: first.etag)
            Issue.record("a put matched a record that does not exist")
        } catch {
            #expect(error.code == .preconditionFailed && error.currentETag == nil)
        }
    }

    @Test func badValuesAreAnInvalidRecordListingEveryProblem() async throws {
        let before = try await admin.record("p003", in: "products")
        var bad = before.record
        bad.title = ""
        bad.currency = "EURO"
        bad.country = "DEU"
        do {
            try await admin.put(bad, in: "products")
            Issue.record("a bad record was stored")
        } catch {
            #expect(error.code == .invalidRecord && error.status == 422 && error.apiCode == "invalid_record")
            #expect(Set(error.problems.map(\.pointer)) == ["/title", "/currency", "/country"])
            #expect(error.problems.allSatisfy { !$0.message.isEmpty })
        }
        do {
            try await admin.patch("p003", in: "products", changes: ["price": .text("cheap")])
            Issue.record("a bad patch was applied")
        } catch {
            #expect(error.code == .invalidRecord && error.problems.map(\.pointer) == ["/price"])
        }
        do {
            try await admin.batch(
                [.upsert(Record(id: "z-ok", title: "Fine")), .delete(id: "p-missing")], in: "products")
            Issue.record("a batch with a bad change was applied")
        } catch {
            #expect(error.code == .invalidRecord && error.problems.map(\.pointer) == ["/1/delete"])
        }
        // All or nothing: the good half of the batch is not there either.
        do {
            _ = try await admin.record("z-ok", in: "products")
            Issue.record("half a batch was applied")
        } catch {
            #expect(error.code == .notFound)
        }
        #expect(try await admin.record("p003", in: "products") == before)
    }

    @Test func patchChangesSomeFieldsAndRemovesOthers() async throws {
        let before = try await admin.record("p004", in: "products")
        let patched = try await admin.patch(
            "p004", in: "products", changes: ["subtitle": .text("Neu"), "weight": .number("1.50")], ifMatch: before.etag
        )
        #expect(patched.record.subtitle == "Neu" && patched.record.fields["weight"] == .number("1.50"))
        #expect(patched.record.title == before.record.title && patched.record.price == before.record.price)
        #expect(patched.change == before.change + 1 && patched.etag != before.etag)
        let removed = try await admin.patch("p004", in: "products", changes: ["weight": .null, "subtitle": .null])
        #expect(removed.record.fields["weight"] == nil && removed.record.subtitle == nil)
        let raw = try await admin.patch(
            "p004", in: "products", mergePatch: Data(#"{"fields":{"color":"rot"},"quantity":7}"#.utf8))
        #expect(raw.record.fields["color"] == .text("rot") && raw.record.quantity == 7)
        #expect(try await admin.record("p004", in: "products") == raw)
        do {
            try await admin.patch("p-none", in: "products", changes: ["subtitle": .text("x")])
            Issue.record("a record that does not exist was patched")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func deleteAnswersTheChangeNumber() async throws {
        let before = try await admin.record("p005", in: "products")
        let change = try await admin.delete("p005", in: "products", ifMatch: before.etag)
        #expect(change == before.change + 1)
        do {
            _ = try await admin.record("p005", in: "products")
            Issue.record("the record is still there")
        } catch {
            #expect(error.code == .notFound)
        }
        do {
            try await admin.delete("p005", in: "products")
            Issue.record("a record was deleted twice")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func batchAppliesEveryChangeInOrderAllOrNothing() async throws {
        let start = try await admin.record("p006", in: "products")
        var renamed = start.record
        renamed.title = "Stapel A"
        let added = Record(id: "z-batch", title: "Stapel B", categories: ["Neu"])
        let outcome = try await admin.batch([.upsert(renamed), .upsert(added), .delete(id: "p007")], in: "products")
        #expect(outcome.change == start.change + 3)
        #expect(outcome.results.map(\.id) == ["p006", "z-batch", "p007"])
        #expect(outcome.results.map(\.result) == [.replaced, .created, .deleted])
        #expect(outcome.results[0].etag == (try await admin.record("p006", in: "products")).etag)
        #expect(outcome.results[1].etag == (try await admin.record("z-batch", in: "products")).etag)
        #expect(outcome.results[2].etag == nil)
        // The same content again: unchanged, no change number used.
        let stored = try await admin.record("z-batch", in: "products").record
        let same = try await admin.batch([.upsert(stored)], in: "products")
        #expect(same.change == outcome.change && same.results.map(\.result) == [.unchanged])
        #expect(try await admin.categories(of: "products").contains { $0.name == "Neu" && $0.count == 1 })
    }

    @Test func writesNeedAnAccountThatMayChangeTheCatalog() async throws {
        let record = Record(id: "z-anon", title: "Anonym")
        do {
            try await live.client().put(record, in: "products")
            Issue.record("a write without a token was applied")
        } catch {
            #expect(error.code == .unauthorized)
        }
        do {
            try await live.client(token: live.userToken).put(record, in: "products")
            Issue.record("a user who may not change the catalog changed it")
        } catch {
            #expect(error.code == .forbidden)
        }
    }

    @Test func conditionsAreCheckedBeforeAnythingIsSent() async throws {
        for (ifMatch, createOnly) in [("p001", false), ("\"a\"b\"", false), ("\"a\"", true)] {
            do {
                try await admin.put(
                    Record(id: "z", title: "Z"), in: "products", ifMatch: ifMatch, createOnly: createOnly)
                Issue.record("\(ifMatch) was sent")
            } catch {
                #expect(error.code == .invalidArgument && error.status == nil)
            }
        }
    }
}
