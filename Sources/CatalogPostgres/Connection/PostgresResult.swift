import CLibPQ

/// The rows of one statement, in the binary format the engine asks for (text from `PQexec`).
/// Owns its `PGresult*` and clears it when it goes away.
final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    /// How many rows there are.
    var count: Int { Int(PQntuples(handle)) }

    /// How many rows an INSERT, UPDATE or DELETE touched.
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    private func raw(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard length > 0, let value = PQgetvalue(handle, Int32(row), Int32(column)) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(value), count: length)
    }

    /// An integer column (`int2`, `int4` or `int8` in binary), 0 for NULL.
    func int(_ row: Int, _ column: Int) -> Int {
        Int(int64(row, column))
    }

    /// An integer column as 64 bits, 0 for NULL.
    func int64(_ row: Int, _ column: Int) -> Int64 {
        let bytes = raw(row, column)
        var value: Int64 = 0
        switch bytes.count {
        case 2: value = Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self)))
        case 4: value = Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
        case 8: value = Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        default: break
        }
        return value
    }

    /// An integer column, nil for NULL.
    func optionalInt(_ row: Int, _ column: Int) -> Int? {
        isNull(row, column) ? nil : int(row, column)
    }

    /// A `bool` column in binary.
    func bool(_ row: Int, _ column: Int) -> Bool {
        raw(row, column).first.map { $0 != 0 } ?? false
    }

    /// A text column (its UTF-8 bytes in either format), "" for NULL.
    func text(_ row: Int, _ column: Int) -> String {
        String(decoding: raw(row, column), as: UTF8.self)
    }

    /// A text column, nil for NULL.
    func optionalText(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : text(row, column)
    }

    /// A `bytea` column in binary (or a text column's bytes), empty for NULL.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        Array(raw(row, column))
    }
}
