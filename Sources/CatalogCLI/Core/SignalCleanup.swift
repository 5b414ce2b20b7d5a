#if canImport(Glibc)
    import Glibc
#endif
import CatalogImport
import Foundation

/// Removes temporary downloads when SIGINT, SIGTERM or SIGHUP stops a command that makes them
/// (`catalog import URL`, `catalog refresh`).
///
/// The signals are blocked on the main thread before any other thread starts, so every thread
/// inherits the mask and only one watcher thread receives them (with `sigwait`, so the cleanup is
/// ordinary code rather than a signal handler). It deletes the registered temporary files and
/// exits with 128 + the signal number; an import in progress is abandoned with its transaction,
/// so the catalog is as it was.
enum SignalCleanup {
    /// Blocks the signals and starts the watcher. Call first thing, on the main thread.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watched = signals
        let watcher = Thread {
            var received: Int32 = 0
            var waitFor = watched
            sigwait(&waitFor, &received)
            TemporaryFiles.removeRegistered()
            let name = received == SIGINT ? "SIGINT" : received == SIGTERM ? "SIGTERM" : "SIGHUP"
            let message = "catalog: \(name): stopped; nothing was changed, temporary files removed\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            _exit(128 + received)
        }
        watcher.name = "catalog-signals"
        watcher.start()
    }
}
