// libFuzzer target: the filter language's parser (`filter=`, `catalog search --filter`). Any text
// either parses or throws an error whose column lies inside the text (or just after it), and what
// parses writes itself back as text that parses to the same filter.
import CatalogModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilterExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let expression = try FilterExpression(parsing: text)
        guard expression.conditions.count <= FilterExpression.maxConditions else {
            fatalError("\(expression.conditions.count) conditions")
        }
        let written = expression.description
        guard let again = try? FilterExpression(parsing: written), again.description == written else {
            fatalError("\(written) does not read back as itself")
        }
    } catch {
        let columns = 1...(text.unicodeScalars.count + 1)
        guard columns.contains(error.column) || (error.column == 1 && text.utf8.count > FilterExpression.maxLength)
        else {
            fatalError("column \(error.column) outside a text of \(text.unicodeScalars.count) characters")
        }
    }
    return 0
}
