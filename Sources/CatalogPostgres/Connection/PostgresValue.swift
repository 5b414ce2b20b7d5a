/// The PostgreSQL types the engine binds and reads, by their type OIDs (`pg_type.oid`).
enum PostgresType: UInt32, Sendable {
    case bool = 16
    case bytea = 17
    case int8 = 20
    case int4 = 23
    case text = 25
    case float8 = 701
    case int4Array = 1007
    case textArray = 1009
    case int8Array = 1016
}

/// A statement parameter, sent in PostgreSQL's binary format: values are never spliced into SQL.
enum PostgresValue: Sendable, Equatable {
    case bool(Bool)
    case int4(Int32)
    case int8(Int64)
    case float8(Double)
    case text(String)
    case bytea([UInt8])
    case int4Array([Int32])
    case int8Array([Int64])
    /// A `text[]`, its elements NULL where nil.
    case textArray([String?])
    /// SQL NULL of a type.
    case null(PostgresType)

    /// The parameter's type, declared when its statement is prepared.
    var type: PostgresType {
        switch self {
        case .bool: .bool
        case .int4: .int4
        case .int8: .int8
        case .float8: .float8
        case .text: .text
        case .bytea: .bytea
        case .int4Array: .int4Array
        case .int8Array: .int8Array
        case .textArray: .textArray
        case .null(let type): type
        }
    }

    /// An `int4` from an `Int` the schema keeps in 32 bits (sections, documents, counts).
    static func int(_ value: Int) -> PostgresValue { .int4(Int32(clamping: value)) }

    /// Text, or NULL.
    static func text(_ value: String?) -> PostgresValue { value.map { .text($0) } ?? .null(.text) }

    /// Appends the binary form to `buffer`; false for NULL (nothing appended).
    func encode(into buffer: inout [UInt8]) -> Bool {
        switch self {
        case .bool(let value): buffer.append(value ? 1 : 0)
        case .int4(let value): buffer.appendBigEndian(value)
        case .int8(let value): buffer.appendBigEndian(value)
        case .float8(let value): buffer.appendBigEndian(value.bitPattern)
        case .text(let value): buffer.append(contentsOf: value.utf8)
        case .bytea(let value): buffer.append(contentsOf: value)
        case .int4Array(let values):
            // Array header: dimensions, has-nulls flag, element type, then (length, lower bound)
            // per dimension; then each element as its length and bytes.
            buffer.appendBigEndian(Int32(1))
            buffer.appendBigEndian(Int32(0))
            buffer.appendBigEndian(PostgresType.int4.rawValue)
            buffer.appendBigEndian(Int32(values.count))
            buffer.appendBigEndian(Int32(1))
            for value in values {
                buffer.appendBigEndian(Int32(4))
                buffer.appendBigEndian(value)
            }
        case .int8Array(let values):
            buffer.appendBigEndian(Int32(1))
            buffer.appendBigEndian(Int32(0))
            buffer.appendBigEndian(PostgresType.int8.rawValue)
            buffer.appendBigEndian(Int32(values.count))
            buffer.appendBigEndian(Int32(1))
            for value in values {
                buffer.appendBigEndian(Int32(8))
                buffer.appendBigEndian(value)
            }
        case .textArray(let values):
            buffer.appendBigEndian(Int32(1))
            buffer.appendBigEndian(Int32(values.contains(nil) ? 1 : 0))
            buffer.appendBigEndian(PostgresType.text.rawValue)
            buffer.appendBigEndian(Int32(values.count))
            buffer.appendBigEndian(Int32(1))
            for value in values {
                guard let value else {
                    buffer.appendBigEndian(Int32(-1))
                    continue
                }
                buffer.appendBigEndian(Int32(value.utf8.count))
                buffer.append(contentsOf: value.utf8)
            }
        case .null: return false
        }
        return true
    }
}

extension [UInt8] {
    /// Appends an integer in network byte order.
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
