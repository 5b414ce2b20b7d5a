// libFuzzer target: the CSV reader (separator detection, RFC 4180 quoting, comment lines, JSON
// columns, the embedded definition line) over any bytes. The first byte picks the separator and
// the comment character. Any input must give records or an ImportError.
import CatalogImport
import CatalogModel
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let options = data[0]
    let bytes = Data(bytes: data + 1, count: size - 1)
    let separators: [Character?] = [nil, ",", ";", "\t"]
    var reader = CSVRecordReader(data: bytes, sourceName: "fuzz.csv", separator: separators[Int(options & 3)])
    if options & 4 != 0 { reader.comment = "#" }
    var layout = CSVRecordWriter.Layout()
    do {
        try reader.forEachRecord { record in layout.add(record) }
    } catch is ImportError {
    } catch {
        fatalError("the CSV reader threw something that is not an ImportError: \(error)")
    }
    return 0
}
