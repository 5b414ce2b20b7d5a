// expect: pthread-key-destructor typecheck
//
// WorkerLocal's initializer as issue 23 reported it: one destructor closure for both platforms,
// written for Glibc's optional argument. It does not compile against Darwin's pthread.h.

import Foundation

final class ThreadSlot {
    private var key = pthread_key_t()

    init() {
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }

    deinit {
        pthread_key_delete(key)
    }
}
