import Foundation

/// Standard output or standard error, written with `write(2)` so that a failed write never traps.
///
/// `FileHandle.write(_: Data)` stops the process (SIGILL) when the write fails, as it does once
/// the reader of a pipe went away (`catalog serve 2>&1 | head`); with SIGPIPE ignored, which
/// `catalog` does at start, `write(2)` answers `EPIPE` instead. Every line the CLI and the server
/// print goes through here: a stream that fails is left alone from then on, and the caller learns
/// it from the result.
///
/// ```swift
/// StandardStream.error.line("catalog serve: stopped")   // false if standard error is gone
/// ```
public struct StandardStream: Sendable {
    /// The file descriptor written to.
    public let descriptor: Int32

    /// A stream on `descriptor`.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Standard output (descriptor 1).
    public static let output = StandardStream(descriptor: 1)
    /// Standard error (descriptor 2).
    public static let error = StandardStream(descriptor: 2)

    /// Writes every byte, retrying after signals and short writes.
    ///
    /// - Returns: false when the stream refused them (a closed pipe, a full disk, a closed
    ///   descriptor); what was not written is dropped.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var address = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            let written = Foundation.write(descriptor, address, left)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            if written == 0 { return false }
            address += written
            left -= written
        }
        return true
    }

    /// Writes `bytes`; false when the stream refused them.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes `text` as UTF-8; false when the stream refused it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` and a newline in one `write(2)` (so lines from threads do not interleave);
    /// false when the stream refused it.
    @discardableResult
    public func line(_ text: String) -> Bool {
        write(text + "\n")
    }
}
