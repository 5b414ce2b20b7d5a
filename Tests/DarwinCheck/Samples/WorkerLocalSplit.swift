// expect: clean
//
// WorkerLocal's initializer as fixed: a destructor per platform.

import Foundation

final class ThreadSlot {
    private var key = pthread_key_t()

    init() {
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
}
