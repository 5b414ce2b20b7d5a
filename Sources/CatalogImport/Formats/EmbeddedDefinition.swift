import CatalogModel
import CatalogSupport
import Foundation

/// The catalog definition an export carries, so importing the file into a new catalog needs no
/// `--field` flags and gives the same records.
///
/// `catalog export` writes it where each format has room for it, near the top:
/// - XML: `<?catalog-definition {…}?>` on the line after the XML declaration;
/// - JSON: the document is `{"catalog-definition":{…},"records":[…]}`, the definition on the first
///   line;
/// - CSV: a file of its own beside the CSV file, `FILE.csv.definition.json` (``sidecar(of:)``),
///   so that spreadsheets, pandas and other CSV readers see nothing but the table; a first line
///   `#catalog-definition {…}` before the header, as earlier versions wrote it, is still read;
/// - SQLite: a table `catalog_definition` beside the records' table (read by the SQLite target).
///
/// The definition is JSON on one line, with `<` and `>` escaped, so it can never end the
/// processing instruction early. Only a file as `catalog export` wrote it is recognized; anything
/// else simply has no embedded definition.
public enum EmbeddedDefinition {
    /// The name of the XML processing instruction, JSON key and CSV line prefix.
    public static let marker = "catalog-definition"
    /// The most bytes looked at for the definition.
    static let maxBytes = 16 << 20

    /// `definition` as one line of JSON, without where it was fetched from or what was imported.
    public static func json(_ definition: CatalogDefinition) -> String {
        let portable = definition.published
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(portable)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // Outside strings JSON has no '<' or '>', so escaping them everywhere stays valid JSON.
        return text.replacingScalars(of: "<", with: "\\u003c").replacingScalars(of: ">", with: "\\u003e")
    }

    /// What the name of a CSV file's definition file adds to the CSV file's name.
    public static let sidecarSuffix = ".definition.json"

    /// The file beside a CSV file that holds its definition: `cities.csv.definition.json`.
    public static func sidecar(of fileURL: URL) -> URL {
        URL(fileURLWithPath: fileURL.path + sidecarSuffix)
    }

    /// The contents of a definition file: ``json(_:)`` and a line end.
    public static func sidecarData(_ definition: CatalogDefinition) -> Data {
        Data((json(definition) + "\n").utf8)
    }

    /// The definition a file carries as ``json(_:)`` wrote it, if any: embedded in a text file
    /// (XML, JSON, CSV), or for CSV in the definition file beside it.
    public static func read(fileURL: URL, format: ImportFormat) -> CatalogDefinition? {
        let embedded = readEmbedded(fileURL: fileURL, format: format)
        guard embedded == nil, format == .csv else { return embedded }
        let sidecar = sidecar(of: fileURL)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: sidecar.path))?[.size] as? Int,
            size <= maxBytes, let data = try? Data(contentsOf: sidecar)
        else { return nil }
        return decode(String(decoding: data, as: UTF8.self))
    }

    private static func readEmbedded(fileURL: URL, format: ImportFormat) -> CatalogDefinition? {
        guard format != .sqlite, let handle = try? FileHandle(forReadingFrom: fileURL) else { return nil }
        defer { try? handle.close() }
        // Only as much as the definition's lines need: reading stops at the second line end, or
        // as soon as the head cannot be an export's (a one-line JSON file of 100 MB is not read
        // whole, and the line ends are counted once per chunk).
        var head = Data()
        var lineEnds = 0
        while head.count < maxBytes, lineEnds < 2, mayCarryDefinition(head, format: format) {
            guard let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty else { break }
            lineEnds += chunk.withUnsafeBytes { bytes in bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }
            head.append(chunk)
        }
        var lines = head.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).prefix(2)
            .map { String(decoding: $0, as: UTF8.self) }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        let json: Substring?
        switch format {
        case .xml:
            json = lines.dropFirst().first.flatMap { line in
                let start = "<?\(marker) "
                guard line.hasPrefix(start), line.hasSuffix("?>") else { return nil }
                return line.dropFirst(start.count).dropLast(2)
            }
        case .json:
            json = lines.first.flatMap { line in
                let start = "{\"\(marker)\":"
                guard line.hasPrefix(start), line.hasSuffix(",") else { return nil }
                return line.dropFirst(start.count).dropLast()
            }
        case .csv:
            json = lines.first.flatMap { line in
                let start = "#\(marker) "
                let trimmed = line.hasSuffix("\r") ? line.dropLast() : Substring(line)
                guard trimmed.hasPrefix(start) else { return nil }
                return trimmed.dropFirst(start.count)
            }
        case .sqlite:
            json = nil
        }
        return json.flatMap { decode(String($0)) }
    }

    /// Whether a file that starts with `head` may still be one that carries a definition: JSON
    /// and CSV must start with theirs (after a byte order mark), XML must have it first on its
    /// second line.
    static func mayCarryDefinition(_ head: Data, format: ImportFormat) -> Bool {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let start: String
        switch format {
        case .json: start = "{\"\(marker)\":"
        case .csv: start = "#\(marker) "
        case .xml:
            guard let lineEnd = bytes.firstIndex(of: 0x0A) else { return true }
            bytes = bytes[(lineEnd + 1)...]
            start = "<?\(marker) "
        case .sqlite: return false
        }
        let prefix = Array(start.utf8)
        return bytes.prefix(prefix.count).elementsEqual(prefix.prefix(min(prefix.count, bytes.count)))
    }

    /// Decodes a definition written by ``json(_:)``.
    public static func decode(_ json: String) -> CatalogDefinition? {
        try? JSONDecoder().decode(CatalogDefinition.self, from: Data(json.utf8))
    }

    /// A new catalog's definition made from an embedded one: its mapping, types, categories,
    /// scopes, languages, description and document shape, with the new catalog's id, title and
    /// locale. A description the file carries that no catalog may have (too long, control
    /// characters: ``CatalogDocument/descriptionProblem(_:)``) is left out, as is an empty one.
    public static func apply(_ embedded: CatalogDefinition, to definition: CatalogDefinition) -> CatalogDefinition {
        var result = embedded
        if let description = embedded.description,
            description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                || CatalogDocument.descriptionProblem(description) != nil
        {
            result.description = nil
        }
        result.id = definition.id
        result.title = definition.title
        result.locale = definition.locale
        result.source = nil
        result.lastImport = nil
        result.idSource = nil
        result.mapping.merge(definition.mapping) { _, given in given }
        result.fieldTypes.merge(definition.fieldTypes) { _, given in given }
        if let language = definition.language { result.language = language }
        if let separator = definition.categorySeparator { result.categorySeparator = separator }
        return result
    }
}
