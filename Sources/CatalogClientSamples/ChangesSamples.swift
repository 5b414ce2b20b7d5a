import CatalogClient
import Foundation

/// Changing records (with ETags, so a change made meanwhile is never overwritten) and following a
/// catalog's changes.
enum ChangesSamples {
    static func signIn() async throws {
        // sample: changes-sign-in
        let client = CatalogClient(baseURL: URL(string: "http://localhost:8080")!)
        try await client.signIn(name: "mari", password: "túrós csusza")
        // end
    }

    static func create(client: CatalogClient) async throws {
        // sample: changes-create
        let soup = Record(id: "gulyas", title: "Gulyásleves", categories: ["Levesek"])
        let stored = try await client.put(soup, in: "cookbook", createOnly: true)
        print(stored.record.section ?? "", stored.etag, stored.change)
        // end
    }

    static func save(client: CatalogClient) async throws {
        // sample: changes-save
        let stored = try await client.record("gulyas", in: "cookbook")
        var edited = stored.record
        edited.subtitle = "Mari néni receptje"
        do {
            try await client.put(edited, in: "cookbook", ifMatch: stored.etag)
        } catch {
            guard error.code == .preconditionFailed else { throw error }
            // Someone saved first (the record's ETag is now error.currentETag): show their version.
            let theirs = try await client.record("gulyas", in: "cookbook")
            print(theirs.record.subtitle ?? "")
        }
        // end
    }

    static func problems(client: CatalogClient, record: Record) async throws {
        // sample: changes-problems
        do {
            try await client.put(record, in: "cookbook")
        } catch {
            guard error.code == .invalidRecord else { throw error }
            for problem in error.problems {
                print(problem.pointer, problem.message)  // "/price" "price must be a number ≥ 0"
            }
        }
        // end
    }

    static func patchAndBatch(client: CatalogClient, soup: Record) async throws {
        // sample: changes-patch
        let patched = try await client.patch(
            "gulyas", in: "cookbook", changes: ["price": .number("12.50"), "subtitle": .null])
        print(patched.record.price ?? 0)
        // end
        // sample: changes-batch
        let outcome = try await client.batch([.upsert(soup), .delete(id: "r07")], in: "cookbook")
        for entry in outcome.results {
            print(entry.id, entry.result)  // created, replaced, deleted or unchanged
        }
        // end
    }

    static func follow(client: CatalogClient, since: Int) async throws {
        // sample: changes-follow
        for try await change in client.changes(of: "cookbook", since: since) {
            switch change.kind {
            case .upsert: print("new or changed:", change.record?.title ?? "")
            case .delete: print("removed:", change.id ?? "")
            case .definition, .reload: print("read the catalog again")
            }
        }
        // end
    }

    static func followOptions(client: CatalogClient) async throws {
        // sample: changes-options
        var options = ChangeFeedOptions()
        options.transport = .polling(every: .seconds(10))
        let changes = client.changes(of: "cookbook", since: 0, options: options)
        let task = Task {
            for try await change in changes {
                print(change.number)
            }
        }
        // Later: the sequence ends with its task.
        task.cancel()
        // end
    }

    static func followStatus(client: CatalogClient, since: Int) async throws {
        // sample: changes-status
        var options = ChangeFeedOptions()
        options.transport = .events(idleTimeout: .seconds(45))
        options.onStatus = { status in
            switch status {
            case .live: print("live")
            case .retrying(let error): print("reconnecting:", error.message)
            }
        }
        for try await change in client.changes(of: "cookbook", since: since, options: options) {
            print(change.number, change.kind)
        }
        // end
    }

    static func parseEvents() throws {
        // sample: changes-parser
        var parser = ServerSentEventParser()
        for chunk in ["id: 7\nevent: cha", "nge\ndata: {}\n\n"] {
            for event in try parser.parse(Array(chunk.utf8)) {
                print(event.lastEventID, event.type, event.data)  // 7 change {}
            }
        }
        // end
    }
}
