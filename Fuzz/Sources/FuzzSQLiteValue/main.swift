// libFuzzer target: how the SQLite table reader turns one cell into fields. The first byte picks
// the storage class and whether the column is declared JSON; the rest is the value. Every number
// it gives must be a valid JSON number literal, every list element marked as one.
import CatalogImport
import CatalogModel
import Foundation
import SQLiteSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSQLiteValue(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let options = data[0]
    let payload = UnsafeBufferPointer(start: data + 1, count: size - 1)
    func eightBytes() -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in payload.prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
        return value
    }
    let value: SQLBinding
    switch options % 5 {
    case 0: value = .null
    case 1: value = .integer(Int64(bitPattern: eightBytes()))
    case 2: value = .real(Double(bitPattern: eightBytes()))
    case 3: value = .text(String(decoding: payload, as: UTF8.self))
    default: value = .blob(Array(payload))
    }
    let fields = SQLiteValueConversion.fields(
        name: "c", value: value, declaredJSON: options & 8 != 0, location: SourceLocation(source: "fuzz", line: 1))
    for field in fields {
        if field.kind == .number, !JSONNumber.isValid(field.value) {
            fatalError("a number field holds \(field.value), which is not a JSON number")
        }
        if fields.count > 1, !field.isListElement { fatalError("several fields from one cell, not all list elements") }
    }
    return 0
}
