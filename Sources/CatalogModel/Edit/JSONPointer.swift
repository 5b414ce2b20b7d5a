import Foundation

/// RFC 6901 JSON pointers, as ``RecordProblem/pointer`` spells them: `""` is the whole document,
/// `/3/upsert/price` a member of an element; `~` is written `~0` and `/` is written `~1`.
enum JSONPointer {
    /// `pointer` followed by the member `key`.
    static func appending(_ pointer: String, _ key: String) -> String {
        guard key.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return pointer + "/" + key }
        return pointer + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pointer` followed by the array element `index`.
    static func appending(_ pointer: String, _ index: Int) -> String {
        pointer + "/" + String(index)
    }
}
