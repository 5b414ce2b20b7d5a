/// How large a record change may be. The server declares its routes' body limits from these, the
/// CLI splits what it sends by them, and the reader refuses anything larger with a problem.
public enum RecordChangeLimits {
    /// One record's JSON (a `PUT` body, one batch `upsert`, a merge patch and the record it makes):
    /// at most 256 KiB.
    public static let maxRecordBytes = 256 * 1024
    /// One field value (a text, or all the texts and numbers of a list, in UTF-8): at most 64 KiB.
    public static let maxFieldValueBytes = 64 * 1024
    /// One batch: at most 50,000 operations.
    public static let maxOperations = 50_000
    /// One batch body: at most 64 MiB.
    public static let maxBatchBytes = 64 * 1024 * 1024
    /// A record's id: at most 512 bytes of UTF-8 (as an import allows).
    public static let maxIDBytes = 512
    /// A title: at most 4096 characters (as an import allows).
    public static let maxTitleCharacters = 4096
    /// One category label: at most 200 characters.
    public static let maxCategoryCharacters = 200
    /// An extra field's name: at most 200 bytes of UTF-8.
    public static let maxFieldNameBytes = 200
    /// Arrays and objects nested inside one record, operation or patch: at most 64 deep (the
    /// depth every reader of record JSON allows).
    public static let maxDepth = JSONInput.maxDepth
    /// Problems listed in one ``RecordProblems``; past them one more problem says how many were cut.
    public static let maxProblems = 100
}
