import CatalogHTTP
import Foundation
import Synchronization
import Testing

@testable import CatalogServer

@Suite struct ResponseCacheTests {
    final class Counter: Responder {
        let calls = Mutex(0)
        func respond(to request: Request, context: RequestContext) throws -> Response {
            calls.withLock { $0 += 1 }
            return Response(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: [UInt8](repeating: 0x20, count: 1000))
        }
        var count: Int { calls.withLock { $0 } }
    }

    func get(_ cache: ResponseCache, _ next: Counter, _ path: String, token: Bool = false) throws -> Response {
        var request = Request(method: .get, target: path)!
        if token { request.headers["Authorization"] = "Bearer x" }
        return try cache.respond(to: request, context: RequestContext(), next: next)
    }

    @Test func reusesAnswersAndEvictsByGeneration() throws {
        let fixture = try ServerFixture()
        let cache = ResponseCache(stores: fixture.application.stores, budget: 10_000)
        let next = Counter()
        let first = try get(cache, next, "/api/v1/catalogs/a/items")
        #expect(first.headers["ETag"] != nil)
        _ = try get(cache, next, "/api/v1/catalogs/a/items")
        #expect(next.count == 1)
        // Filling past half the budget moves "a" to the old generation; a hit brings it back.
        for index in 0..<5 { _ = try get(cache, next, "/api/v1/catalogs/b\(index)/items") }
        let before = next.count
        _ = try get(cache, next, "/api/v1/catalogs/a/items")
        #expect(next.count == before)
        // Private and other answers are never kept.
        _ = try get(cache, next, "/api/v1/catalogs/a/items", token: true)
        _ = try get(cache, next, "/gethots")
        _ = try get(cache, next, "/gethots")
        #expect(next.count == before + 3)
    }

    /// A body written into room for a page of records is kept in a buffer of its own size, and
    /// counts against the budget by what it holds.
    @Test func keepsSmallBodiesInBuffersOfTheirSize() throws {
        final class Roomy: Responder {
            func respond(to request: Request, context: RequestContext) throws -> Response {
                var body = [UInt8](repeating: 0x20, count: 300)
                body.reserveCapacity(32 * 1024)
                return Response(status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
            }
        }
        let fixture = try ServerFixture()
        let cache = ResponseCache(stores: fixture.application.stores, budget: 64 * 1024)
        let first = try cache.respond(
            to: Request(method: .get, target: "/api/v1/catalogs/a/items/1")!, context: RequestContext(), next: Roomy())
        #expect(first.bytes?.count == 300)
        #expect((first.bytes?.capacity ?? .max) < 1024)
        // Thirty items of 300 bytes fit in half of 64 KiB; in 32 KiB buffers, one would not.
        for index in 2...30 {
            _ = try cache.respond(
                to: Request(method: .get, target: "/api/v1/catalogs/a/items/\(index)")!, context: RequestContext(),
                next: Roomy())
        }
        let counter = Counter()
        _ = try get(cache, counter, "/api/v1/catalogs/a/items/1")
        #expect(counter.count == 0, "the first item is still kept")
    }
}
