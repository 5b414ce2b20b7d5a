import Foundation

/// A value per worker thread, made on first use on that thread: each server worker gets its
/// own database connection this way.
///
/// ```swift
/// let connections = WorkerLocal { try Connection(path: path, mode: .readOnly) }
/// let connection = try connections.value()   // this thread's connection
/// …
/// for connection in connections.drain() { connection.close() }  // once no thread uses them
/// ```
public final class WorkerLocal<Value>: @unchecked Sendable {
    // @unchecked: a value is only used by the thread that made it (found through the thread's
    // own pthread key slot); `made` and `generation` are guarded by `lock`. A slot keeps its
    // holder retained (released when the thread exits or the slot is refilled), so a thread that
    // asks again after ``drain()`` finds a holder of an old generation and gets a new value,
    // never a freed one.
    private var key = pthread_key_t()
    private let make: @Sendable () throws -> Value
    private let lock = NSLock()
    private var made: [Holder] = []
    private var generation = 0

    private final class Holder {
        let value: Value
        let generation: Int
        init(_ value: Value, generation: Int) {
            self.value = value
            self.generation = generation
        }
    }

    /// Creates the slot; `make` runs once per thread, on that thread.
    public init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
        // The destructor's argument is optional in Glibc's header and not in Darwin's (the slot is
        // never nil when it runs), so the closure's type differs by platform.
        #if canImport(Darwin)
            pthread_key_create(&key) { pointer in
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        #else
            pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        #endif
    }

    deinit {
        pthread_key_delete(key)
    }

    /// This thread's value, made now if the thread has none yet.
    public func value() throws -> Value {
        let current = lock.withLock { generation }
        if let pointer = pthread_getspecific(key) {
            let holder = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as! Holder
            if holder.generation == current { return holder.value }
            pthread_setspecific(key, nil)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        let holder = Holder(try make(), generation: current)
        lock.withLock { made.append(holder) }
        pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(holder).toOpaque())
        return holder.value
    }

    /// Every value made so far, forgotten by the slot. Call only when no thread uses them any
    /// more (after the server stopped); threads that ask again get new values.
    public func drain() -> [Value] {
        lock.withLock {
            generation += 1
            let values = made.map(\.value)
            made.removeAll()
            return values
        }
    }
}
