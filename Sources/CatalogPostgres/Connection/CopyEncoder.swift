/// Rows in the binary format of `COPY … FROM STDIN (FORMAT binary)`: a signature and header,
/// then per row its field count and each field as a length and bytes (-1 for NULL), then a
/// trailer. No escaping, so every byte of a value arrives as it was.
///
/// ```swift
/// var rows = CopyEncoder()
/// rows.beginRow(fields: 2)
/// rows.int8(7)
/// rows.text("Gulyásleves")
/// let stream = rows.finish()   // header + rows + trailer
/// ```
struct CopyEncoder {
    /// `PGCOPY\n\377\r\n\0`, flags 0, no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// A field count of -1.
    static let trailer: [UInt8] = [0xFF, 0xFF]

    /// The encoded rows (without header and trailer).
    private(set) var bytes: [UInt8] = []
    /// How many rows were begun.
    private(set) var rows = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Starts a row of `fields` values.
    mutating func beginRow(fields: Int) {
        bytes.appendBigEndian(Int16(fields))
        rows += 1
    }

    mutating func int4(_ value: Int32) {
        bytes.appendBigEndian(Int32(4))
        bytes.appendBigEndian(value)
    }

    mutating func int8(_ value: Int64) {
        bytes.appendBigEndian(Int32(8))
        bytes.appendBigEndian(value)
    }

    mutating func float8(_ value: Double) {
        bytes.appendBigEndian(Int32(8))
        bytes.appendBigEndian(value.bitPattern)
    }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.appendBigEndian(Int32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Text given as its UTF-8 bytes.
    mutating func text(utf8 value: [UInt8]) {
        bytea(value)
    }

    mutating func bytea(_ value: [UInt8]) {
        bytes.appendBigEndian(Int32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func null() {
        bytes.appendBigEndian(Int32(-1))
    }

    /// Forgets the rows encoded so far (after they were sent).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rows = 0
    }

    /// The whole stream: header, rows, trailer.
    func finish() -> [UInt8] {
        Self.header + bytes + Self.trailer
    }
}
