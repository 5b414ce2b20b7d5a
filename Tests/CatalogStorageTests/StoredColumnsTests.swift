import CatalogStorage
import Testing

/// A record's category labels as both engines store them.
@Suite struct StoredColumnsTests {
    @Test(arguments: [
        [], ["Soups"], ["Levesek", "Főételek"], [#"quote " and \ backslash"#, "<b>tag</b> & /slash", "tab\tnew\nline"],
        ["\u{0}\u{1F}", "emoji 🍲 and 𝄞", ""],
    ])
    func labelsReadBackAsWritten(_ labels: [String]) {
        let json = StoredColumns.labels(labels)
        #expect(StoredColumns.labels(json: Array(json.utf8)) == labels)
    }

    @Test(arguments: [#"["a""#, #"["a",]"#, #"{"a":1}"#, #"["\ud800"]"#, "", "[1]"])
    func damagedLabelsReadAsNone(_ json: String) {
        #expect(StoredColumns.labels(json: Array(json.utf8)) == [])
    }
}
