import Foundation

/// A value per worker thread, made on first use on that thread: the server gives each worker
/// its own read-only database connection this way.
///
/// ```swift
/// let stores = WorkerLocal { try SQLiteCatalogStore(path: path, readOnly: true) }
/// let store = try stores.value()       // this thread's store
/// …
/// for store in stores.drain() { store.close() }  // after the server stopped
/// ```
public final class WorkerLocal<Value>: @unchecked Sendable {
    // @unchecked: a value is only used by the thread that made it (found through the thread's
    // own pthread key slot); `made` is guarded by `lock` and only hands values out in `drain()`,
    // which callers use after every worker thread has stopped.
    private var key = pthread_key_t()
    private let make: @Sendable () throws -> Value
    private let lock = NSLock()
    private var made: [Holder] = []

    private final class Holder {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Creates the slot; `make` runs once per thread, on that thread.
    public init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
        pthread_key_create(&key, nil)
    }

    deinit {
        pthread_key_delete(key)
    }

    /// This thread's value, made now if the thread has none yet.
    public func value() throws -> Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Holder>.fromOpaque(pointer).takeUnretainedValue().value
        }
        let holder = Holder(try make())
        lock.withLock { made.append(holder) }
        pthread_setspecific(key, Unmanaged.passUnretained(holder).toOpaque())
        return holder.value
    }

    /// Every value made so far, forgotten by the slot. Call only when no thread uses them any
    /// more (after the server stopped); threads that ask again get new values.
    public func drain() -> [Value] {
        lock.withLock {
            let values = made.map(\.value)
            made.removeAll()
            return values
        }
    }
}
