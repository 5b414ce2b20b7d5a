import CatalogClient
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `catalog browse`: a terminal app on the client library alone, with the original apps'
/// screens: the catalogs; a catalog's list in index order with section headers and its index as
/// a key (type a letter to jump); search as you type with scopes and their counts and the matches
/// marked; every field of a record; the cookbook's Hot, Categories and Favorites; sign-in. Online
/// (a server's URL) or offline (a downloaded snapshot), with the same screens.
///
/// ```swift
/// var options = CatalogTerminal.Options()
/// options.server = URL(string: "http://localhost:8080")
/// exit(CatalogTerminal.run(options))
/// ```
public enum CatalogTerminal {
    /// What to browse and how.
    public struct Options: Sendable {
        /// The server (nil with ``offlineFile``).
        public var server: URL?
        /// A snapshot file to browse without a server.
        public var offlineFile: URL?
        /// A bearer token to start signed in.
        public var token: String?
        /// A catalog to open at once.
        public var catalog: String?
        /// Whether to use colours; nil decides from the environment (`NO_COLOR`, `TERM=dumb`).
        public var colors: Bool?
        /// The environment (colours, the benchmark hook).
        public var environment: [String: String] = ProcessInfo.processInfo.environment

        /// Nothing chosen yet.
        public init() {}
    }

    /// Where favorites marked while the server is away are kept, one file per server:
    /// `CATALOG_FAVORITES_QUEUE`, else `$XDG_STATE_HOME/catalog/` (`~/.local/state/catalog/`)
    /// `favorites-HOST-PORT.json`; nil when there is no such place.
    static func favoritesFile(server: URL, _ environment: [String: String]) -> URL? {
        if let path = environment["CATALOG_FAVORITES_QUEUE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].flatMap { $0.isEmpty ? nil : $0 + "/.local/state" }
        guard let state else { return nil }
        let folder = URL(fileURLWithPath: state).appendingPathComponent("catalog")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
        else { return nil }
        let name = "\(server.host ?? "server")-\(server.port.map(String.init) ?? "default")"
            .map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }
        return folder.appendingPathComponent("favorites-\(String(name)).json")
    }

    /// Why the app could not start.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The exit status: 64 for a usage error, 1 otherwise.
        public var status: Int32
        /// One line for the user.
        public var message: String
        public var description: String { message }
    }

    /// Runs the app on the controlling terminal until the user quits (`q`, Ctrl-C; Esc goes back a
    /// level and never quits) or the process is told to stop (SIGTERM, SIGHUP); the terminal is put back as it
    /// was in every case. An unreachable server is not a failure: the app says so on its last line
    /// and offers to try again.
    ///
    /// - Throws: ``Failure`` when the terminal or the snapshot cannot be used.
    public static func run(_ options: Options) throws(Failure) {
        let source: any CatalogBrowsing
        var client: CatalogClient?
        var openAtOnce = options.catalog
        if let file = options.offlineFile {
            do {
                let offline = try OfflineCatalog(at: file)
                source = offline
                openAtOnce = offline.id
            } catch {
                throw Failure(status: 1, message: error.message)
            }
        } else if let server = options.server {
            let online = CatalogClient(baseURL: server, token: options.token, timeout: 15)
            source = online
            client = online
        } else {
            throw Failure(status: 64, message: "give a server's URL or --offline FILE")
        }
        let device = TerminalDevice()
        guard device.isTerminal else {
            throw Failure(status: 1, message: "standard input and output must be a terminal")
        }
        let detected = ColorDepth.detect(options.environment)
        let colors: ColorDepth =
            switch options.colors {
            case nil: detected
            case false?: .none
            case true?: max(detected, .basic)
            }
        do {
            try device.enter()
        } catch {
            throw Failure(status: 1, message: "\(error)")
        }
        let stopAfterFirstResults = options.environment["CATALOG_BROWSE_EXIT_AFTER_FIRST_RESULTS"] == "1"
        var previousMask = Session.blockSignals()
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        let done = DispatchSemaphore(value: 0)
        let session = Session(device: device, colors: colors)
        let queue = client.flatMap { client in
            Self.favoritesFile(server: client.baseURL, options.environment).map {
                OfflineFavorites(client: client, file: $0)
            }
        }
        Task {
            await session.run(
                source: source, client: client, favoritesQueue: queue, offline: options.offlineFile != nil,
                catalog: openAtOnce,
                signedIn: options.token != nil, stopAfterFirstResults: stopAfterFirstResults)
            done.signal()
        }
        done.wait()
        device.leave()
    }

}

/// One run of the app: the input thread, the signal handlers, the loop.
final class Session: Sendable {
    let device: TerminalDevice
    let colors: ColorDepth
    private let stopped = Atomic<Bool>(false)

    init(device: TerminalDevice, colors: ColorDepth) {
        self.device = device
        self.colors = colors
    }

    func run(
        source: any CatalogBrowsing, client: CatalogClient?, favoritesQueue: OfflineFavorites?, offline: Bool,
        catalog: String?, signedIn: Bool, stopAfterFirstResults: Bool
    ) async {
        let (events, continuation) = AsyncStream.makeStream(of: BrowserEvent.self)
        watchSignals { continuation.yield($0) }
        let reader = Thread { [self] in readKeys { continuation.yield($0) } }
        reader.name = "catalog-browse-keys"
        reader.start()
        let browser = Browser(source: source, client: client, offline: offline, favoritesQueue: favoritesQueue) {
            continuation.yield($0)
        }
        if signedIn { browser.state.signedInAs = "" }
        (browser.width, browser.height) = device.size()
        browser.start(catalog: catalog)
        draw(browser)
        for await event in events {
            if case .resize = event { (browser.width, browser.height) = device.size() }
            browser.handle(event)
            if browser.finished { break }
            draw(browser)
            if stopAfterFirstResults, browser.state.screen == .catalog, browser.state.list.recordCount > 0 { break }
        }
        stopped.store(true, ordering: .releasing)
        stopWatchingSignals()
        continuation.finish()
    }

    private func draw(_ browser: Browser) {
        let frame = BrowserView.frame(browser.state, width: browser.width, height: browser.height)
        device.write(frame.render(width: browser.width, height: browser.height, colors: colors))
    }

    /// Reads keys until the app stops or input ends; a lone ESC becomes Escape after 40 ms.
    private func readKeys(_ post: @Sendable (BrowserEvent) -> Void) {
        var decoder = KeyDecoder()
        while !stopped.load(ordering: .acquiring) {
            guard let bytes = device.read(timeout: decoder.isWaiting ? 40 : 100) else {
                post(.inputEnded)
                return
            }
            let keys = bytes.isEmpty ? (decoder.isWaiting ? decoder.flush() : []) : decoder.feed(bytes)
            for key in keys { post(.key(key)) }
        }
    }

    /// SIGWINCH redraws; SIGINT, SIGTERM and SIGHUP stop the app cleanly. The signals are blocked
    /// in every thread (the app's threads start after this and inherit the mask) and taken by one
    /// thread with `sigwait`, so none is lost or runs a handler in the middle of a frame.
    static func blockSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGWINCH, SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &signals, &previous)
        return previous
    }

    private func watchSignals(_ post: @escaping @Sendable (BrowserEvent) -> Void) {
        let thread = Thread { [self] in
            var signals = sigset_t()
            sigemptyset(&signals)
            for number in [SIGWINCH, SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
            while !stopped.load(ordering: .acquiring) {
                var received: Int32 = 0
                guard sigwait(&signals, &received) == 0 else { continue }
                if stopped.load(ordering: .acquiring) { return }
                post(received == SIGWINCH ? .resize : .stop)
            }
        }
        thread.name = "catalog-browse-signals"
        thread.start()
    }

    /// Wakes the signal thread so it sees the app stopped.
    private func stopWatchingSignals() {
        kill(getpid(), SIGWINCH)
    }
}
