// libFuzzer target: the JSON reader (strict RFC 8259, record detection, keyed records) and the
// mapper over any bytes. The first byte picks the record path. Any input must give records or an
// ImportError.
import CatalogImport
import CatalogModel
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let options = data[0]
    let bytes = Data(bytes: data + 1, count: size - 1)
    let paths: [String?] = [nil, "items", "a.b", "records"]
    let path = paths[Int(options & 3)]
    var definition = CatalogDefinition(id: "fuzz", title: "Fuzz", locale: "en")
    if options & 4 != 0 { definition.language = "de" }
    if options & 8 != 0 { definition.fieldTypes = ["n": .number, "b": .bool] }
    var mapper = RecordMapper(definition: definition)
    do {
        try JSONRecordReader(data: bytes, sourceName: "fuzz.json", recordPath: path).forEachRecord { record in
            if let mapped = try? mapper.record(from: record) {
                _ = mapper.sourceRecord(from: mapped, typedRoles: true)
            }
        }
    } catch is ImportError {
    } catch {
        fatalError("the JSON reader threw something that is not an ImportError: \(error)")
    }
    return 0
}
