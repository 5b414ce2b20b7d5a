import CatalogConsole
import CatalogModel
import CatalogSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered writing to standard output, through ``StandardStream`` (never a trap).
///
/// When the reader went away (`catalog list | head -1`), the first failed write closes the
/// output: everything after it is dropped, ``isClosed`` turns true so loops over records can stop,
/// and the command ends quietly with status 0, as `head` users expect.
final class Output {
    private var buffer: [UInt8] = []
    private let stream: StandardStream
    /// True once a write failed: the reader is gone and nothing more is written.
    private(set) var isClosed = false

    init(descriptor: Int32) {
        stream = StandardStream(descriptor: descriptor)
        buffer.reserveCapacity(1 << 16)
    }

    static func standardOutput() -> Output { Output(descriptor: 1) }

    /// Writes `text` without a newline.
    func write(_ text: String) {
        guard !isClosed else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` and a newline.
    func line(_ text: String = "") {
        write(text)
        if !isClosed { buffer.append(0x0A) }
    }

    /// Writes raw bytes.
    func write(bytes: some Sequence<UInt8>) {
        guard !isClosed else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        if !isClosed && !stream.write(buffer) { isClosed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Whether this output is a terminal.
    var isTerminal: Bool { isatty(stream.descriptor) != 0 }
}

/// Prints one line to standard error, its controls made visible (``TerminalText``: a message may
/// quote a record, a file name or an argument); a closed standard error is ignored.
func printError(_ text: String) {
    StandardStream.error.line(TerminalText.text(text))
}

enum JSON {
    /// The encoder for everything the CLI prints: sorted keys, unescaped slashes, like the API.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func string(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Compact JSON (what ``JSONOutput`` writes) indented the way `JSONEncoder`'s
    /// `.prettyPrinted` does: two spaces per level, `"key" : value`.
    static func pretty(_ compact: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
        for (index, byte) in compact.enumerated() {
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22:
                inString = true
                out.append(byte)
            case 0x7B, 0x5B:
                out.append(byte)
                let next = index + 1 < compact.count ? compact[index + 1] : 0
                if next == 0x7D || next == 0x5D { continue }
                depth += 1
                newline()
            case 0x7D, 0x5D:
                let previous = index > 0 ? compact[index - 1] : 0
                if previous != 0x7B && previous != 0x5B {
                    depth -= 1
                    newline()
                }
                out.append(byte)
            case 0x2C:
                out.append(byte)
                newline()
            case 0x3A:
                out.append(contentsOf: " : ".utf8)
            default:
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
