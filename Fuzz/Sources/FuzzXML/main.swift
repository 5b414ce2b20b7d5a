// libFuzzer target: the XML reader (libxml2 SAX2, the prolog checks, the record collector) and the
// mapper over any bytes. The first byte picks the record element (detected, or named) and whether
// a language is wanted. Any input must give records or an ImportError: anything else, a crash or
// a hang is a bug.
import CatalogImport
import CatalogModel
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let options = data[0]
    let bytes = Data(bytes: data + 1, count: size - 1)
    let element: String? =
        ["r", "a", "item", "field"].indices.contains(Int(options & 7))
        ? ["r", "a", "item", "field"][Int(options & 7)] : nil
    var definition = CatalogDefinition(id: "fuzz", title: "Fuzz", locale: "en")
    definition.mapping = [.title: options & 8 == 0 ? "a" : "#text", .id: "b@c"]
    if options & 16 != 0 { definition.language = "de" }
    var mapper = RecordMapper(definition: definition)
    do {
        try XMLRecordReader(data: bytes, sourceName: "fuzz.xml", recordElement: element).forEachRecord { record in
            _ = try? mapper.record(from: record)
        }
    } catch is ImportError {
    } catch {
        fatalError("the XML reader threw something that is not an ImportError: \(error)")
    }
    return 0
}
