import CatalogHTTP
import CatalogStorage
import Foundation

/// Reuses the catalog API's answers while the data they were made from is unchanged.
///
/// Each worker thread keeps its own cache (no locks), tied to its store's data epoch
/// (``CatalogDatabase/readEpoch()``, asked once per request, before its read): a write through
/// this server, or a change by another process the engine notices, empties it. Only anonymous GETs
/// under `/api/v1/catalogs` (no `Authorization`, no session cookie) with a 200, an in-memory body
/// and no `private` or `no-store` in `Cache-Control` are kept: an answer made for one reader
/// (a catalog that is not public, ``CatalogVisibilityGate``) is never served to another. Eviction is by generations, a cheap approximation of
/// least-recently-used: when the current generation fills half the budget it becomes the old
/// one and the previous old one is dropped; a hit in the old generation moves back to the
/// current one. The stored response carries its ETag, so revalidation stays cheap too.
struct ResponseCache: Middleware {
    let stores: any CatalogDatabase
    let slots: WorkerLocal<Slot>
    /// Bytes of bodies one worker keeps.
    let budget: Int
    /// Hits and misses, for the metrics.
    let counters: CacheCounters

    /// Bodies larger than this are not kept.
    static let maxEntryBytes = 256 * 1024

    final class Slot {
        var epoch = -1
        var current: [String: Response] = [:]
        var previous: [String: Response] = [:]
        var bytes = 0

        func clear() {
            current.removeAll(keepingCapacity: true)
            previous.removeAll()
            bytes = 0
        }
    }

    init(stores: any CatalogDatabase, budget: Int = 8 << 20, counters: CacheCounters = CacheCounters()) {
        self.stores = stores
        self.budget = budget
        self.counters = counters
        slots = WorkerLocal { Slot() }
    }

    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        guard request.method == .get || request.method == .head, request.rawPath.hasPrefix("/api/v1/catalogs"),
            request.headers["Authorization"] == nil, !request.acceptsEventStream,
            !WebSession.carriesSession(request)
        else { return try next.respond(to: request, context: context) }
        let slot = try slots.value()
        let epoch = try stores.readEpoch()
        if slot.epoch != epoch {
            slot.clear()
            slot.epoch = epoch
        }
        let key = request.rawTarget
        if let cached = slot.current[key] {
            counters.hit()
            return cached
        }
        if let cached = slot.previous.removeValue(forKey: key) {
            counters.hit()
            store(cached, key: key, size: cached.bytes?.capacity ?? 0, in: slot)
            return cached
        }
        counters.miss()
        var response = try next.respond(to: request, context: context)
        guard response.status == .ok, let bytes = response.bytes, bytes.count <= Self.maxEntryBytes,
            !Self.isPersonal(response)
        else {
            return response
        }
        // Stored as the conditional-GET and compression layers outside would leave them, so a
        // hit passes through them without being copied and changed.
        if response.headers["ETag"] == nil { response.headers.add("ETag", ConditionalGetMiddleware.etag(of: bytes)) }
        if response.headers["Cache-Control"] == nil { response.headers.add("Cache-Control", "no-cache") }
        if response.headers["Vary"] == nil { response.headers.add("Vary", "Accept-Encoding") }
        // Kept in a buffer of its own size: a body is written into room for a page of records
        // (32 KiB), which an item of 300 bytes would otherwise hold for as long as it is kept.
        let kept = Self.compacted(bytes)
        response.body = .bytes(kept)
        store(response, key: key, size: kept.capacity, in: slot)
        return response
    }

    /// The bytes in a buffer no larger than they need (give or take the allocator's rounding).
    static func compacted(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity > bytes.count + bytes.count / 8 + 64 else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: bytes)
        }
    }

    /// Whether a response is someone's own: `Cache-Control` says `private` or `no-store`.
    static func isPersonal(_ response: Response) -> Bool {
        let cacheControl = response.headers["Cache-Control"]?.lowercased() ?? ""
        return cacheControl.contains("private") || cacheControl.contains("no-store")
    }

    /// What an entry costs beside its body and key: its headers, the dictionary's slot.
    static let entryOverhead = 256

    private func store(_ response: Response, key: String, size: Int, in slot: Slot) {
        let cost = size + key.utf8.count + Self.entryOverhead
        if slot.bytes + cost > budget / 2 {
            slot.previous = slot.current
            slot.current = [:]
            slot.bytes = 0
        }
        slot.current[key] = response
        slot.bytes += cost
    }
}
