import Foundation

/// Images in memory, on disk and in flight: a picture asked for by ten rows at once is fetched
/// once, kept in memory (least recently used go first beyond ``memoryBudget`` bytes) and on disk
/// with its ETag and freshness (the server lets images be used for a week without asking).
actor ImageLoader {
    /// Bytes of images kept in memory.
    let memoryBudget: Int
    /// The disk store, nil for memory only.
    nonisolated let disk: ResponseStore?
    private var memory: [String: (data: Data, used: UInt64)] = [:]
    private var memoryBytes = 0
    private var clock: UInt64 = 0
    private var inFlight: [String: Task<Data, any Error>] = [:]

    init(directory: URL?, memoryBudget: Int = 16 << 20) {
        disk = directory.map { ResponseStore(directory: $0, maxBytes: 128 << 20) }
        self.memoryBudget = memoryBudget
    }

    /// The image under `key`: from memory, from a load already running, or from `fetch`.
    func image(key: String, fetch: @escaping @Sendable () async throws -> Data) async throws -> Data {
        clock += 1
        if let hit = memory[key] {
            memory[key] = (hit.data, clock)
            return hit.data
        }
        let task: Task<Data, any Error>
        if let running = inFlight[key] {
            task = running
        } else {
            task = Task { try await fetch() }
            inFlight[key] = task
        }
        do {
            let data = try await task.value
            inFlight[key] = nil
            remember(data, key: key)
            return data
        } catch {
            inFlight[key] = nil
            throw error
        }
    }

    /// Whether an image is in memory (for tests and for drawing without waiting).
    func cached(_ key: String) -> Data? { memory[key]?.data }

    private func remember(_ data: Data, key: String) {
        guard data.count <= memoryBudget / 4 else { return }
        if let old = memory[key] { memoryBytes -= old.data.count }
        memory[key] = (data, clock)
        memoryBytes += data.count
        while memoryBytes > memoryBudget, let oldest = memory.min(by: { $0.value.used < $1.value.used }) {
            memoryBytes -= oldest.value.data.count
            memory[oldest.key] = nil
        }
    }
}
