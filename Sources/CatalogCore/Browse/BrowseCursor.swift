import CatalogModel
import CatalogStorage

/// How a browse cursor is spelled: a record's place in index order (section, collation key,
/// id), so a cursor stays valid across re-imports: paging on after a re-import continues right
/// after the same place, never showing a record twice and never skipping one that is in both
/// versions.
///
/// The text form is URL-safe base64 of `1, section: u16, keyLength: u16, key, id`.
public enum BrowseCursor {
    /// The longest collation key and id a cursor may carry.
    static let maxKeyBytes = 2048
    static let maxIDBytes = 512
    /// The longest cursor text accepted.
    public static let maxTextLength = 4096

    /// The cursor of `key`.
    public static func encode(_ key: BrowseKey) -> String {
        var bytes: [UInt8] = [1]
        bytes.append(UInt8(truncatingIfNeeded: key.section))
        bytes.append(UInt8(truncatingIfNeeded: key.section >> 8))
        bytes.append(UInt8(truncatingIfNeeded: key.sortKey.count))
        bytes.append(UInt8(truncatingIfNeeded: key.sortKey.count >> 8))
        bytes += key.sortKey
        bytes += Array(key.id.utf8)
        return Base64URL.encode(bytes)
    }

    /// The key a cursor names.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` for anything that is not a cursor.
    public static func decode(_ text: String) throws(StorageError) -> BrowseKey {
        let invalid = StorageError(.invalidArgument, "invalid cursor \"\(text.prefix(32))\"")
        guard !text.isEmpty, text.utf8.count <= maxTextLength, let bytes = Base64URL.decode(text) else {
            throw invalid
        }
        if bytes.count >= 5, bytes[0] == 1 {
            let section = Int(bytes[1]) | Int(bytes[2]) << 8
            let keyLength = Int(bytes[3]) | Int(bytes[4]) << 8
            if keyLength <= maxKeyBytes, bytes.count >= 5 + keyLength, bytes.count - 5 - keyLength <= maxIDBytes,
                let id = String(validating: bytes[(5 + keyLength)...], as: UTF8.self)
            {
                return BrowseKey(section: section, sortKey: Array(bytes[5..<(5 + keyLength)]), id: id)
            }
        }
        // Any other well-formed cursor still names a place: the bytes read as a section and a
        // collation key, so paging from it is defined (like a position past the end).
        let section = bytes.count >= 2 ? Int(bytes[0]) | Int(bytes[1]) << 8 : 0
        return BrowseKey(section: section, sortKey: Array(bytes.dropFirst(2).prefix(maxKeyBytes)), id: "")
    }
}
