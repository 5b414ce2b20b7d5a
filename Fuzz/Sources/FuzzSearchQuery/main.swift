// libFuzzer target: the search query parser and its match ranges over any text. The query keeps
// at most SearchQuery.maxWords words of at most SearchQuery.maxWordBytes bytes, and every range it
// reports lies inside the text.
import CatalogModel
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let middle = text.index(text.startIndex, offsetBy: text.count / 2)
    let query = SearchQuery(String(text[..<middle]))
    let subject = String(text[middle...])
    guard query.words.count <= SearchQuery.maxWords else { fatalError("too many words: \(query.words.count)") }
    for word in query.words where word.isEmpty || word.utf8.count > SearchQuery.maxWordBytes {
        fatalError("a word of \(word.utf8.count) bytes")
    }
    let length = subject.utf16.count
    for range in query.partialRanges(in: subject) + (query.ranges(in: subject)?.ranges ?? [])
    where range.lowerBound < 0 || range.upperBound > length || range.isEmpty {
        fatalError("range \(range) outside a text of \(length) UTF-16 units")
    }
    return 0
}
