import CatalogModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered writing to standard output and standard error.
final class Output {
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    static func standardOutput() -> Output { Output(descriptor: 1) }

    /// Writes `text` without a newline.
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` and a newline.
    func line(_ text: String = "") {
        write(text)
        buffer.append(0x0A)
    }

    /// Writes raw bytes.
    func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    break  // a closed pipe (`catalog list | head`): stop writing quietly
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Whether this output is a terminal.
    var isTerminal: Bool { isatty(descriptor) != 0 }
}

/// Prints one line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
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

    static func pretty(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
