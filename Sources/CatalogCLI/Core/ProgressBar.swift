import CatalogConsole
import CatalogModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress display on standard error, shown only on a terminal and redrawn at most
/// ten times a second: records read, records per second, and (when the input size is known) a
/// bar with the share of bytes read and the time left.
///
/// Byte counts come from the reading thread and record counts from the importing thread, so
/// every update takes the lock.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: the mutable state below is only touched while `lock` is held.
    private let lock = NSLock()
    private let enabled: Bool
    private var totalBytes: Int64?
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var bytes: Int64 = 0
    private var records = 0
    private var drew = false

    init(totalBytes: Int64?, enabled: Bool = isatty(2) != 0) {
        self.totalBytes = totalBytes.flatMap { $0 > 0 ? $0 : nil }
        self.enabled = enabled
    }

    /// Sets the input's size once it is known (after a download).
    func setTotal(bytes: Int64?) {
        lock.withLock { totalBytes = bytes.flatMap { $0 > 0 ? $0 : nil } }
    }

    func update(bytes: Int64) {
        lock.lock()
        defer { lock.unlock() }
        self.bytes = bytes
        draw()
    }

    func update(records: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.records = records
        draw()
    }

    private func draw(force: Bool = false) {
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(records) / elapsed
        var line = "\r\u{1B}[2K"
        if let totalBytes {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            let width = 24
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            line += String(format: "%3.0f%% ", fraction * 100)
            if fraction > 0.01 && fraction < 1 {
                let left = elapsed / fraction - elapsed
                line += String(format: "ETA %dm%02ds ", Int(left) / 60, Int(left) % 60)
            }
        }
        line += "\(records) records, \(Int(rate)) records/s"
        StandardStream.error.write(line)
        drew = true
    }

    /// Shows what happens after reading, with the number of records read.
    func phase(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard enabled else { return }
        StandardStream.error.write("\r\u{1B}[2K\(records) records read; \(text)")
        drew = true
    }

    /// Clears the line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, drew else { return }
        StandardStream.error.write("\r\u{1B}[2K")
    }
}
