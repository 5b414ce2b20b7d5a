// libFuzzer target: CatalogModel's reader of record JSON (what the storage engines read back).
// Any input is a record or a JSONInputError; a record that reads is written and read back equal.
import CatalogModel
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let record = try? Record(json: bytes) else {
        _ = try? FieldValue.fields(json: String(decoding: bytes, as: UTF8.self))
        return 0
    }
    let written = record.jsonBytes
    guard let again = try? Record(json: written) else { fatalError("a record it wrote does not read back") }
    guard again == record else { fatalError("a record changed on a round trip") }
    return 0
}
