import Foundation

/// A catalog's search settings as the JSON document `GET /api/v1/catalogs/{id}/settings` shows
/// (``SearchSettings``), merged into for `PATCH`: an RFC 7396 merge patch, every problem reported
/// at its JSON pointer.
///
/// Members: `synonyms` (rules as text: `"auto, car"`, `"phone => iphone"`), `stopWords`,
/// `typos` (`oneTypoFrom`, `twoTyposFrom`, `exemptWords`, `exemptFields`), `searchableFields`,
/// `filterableFields`, `facetFields` and `sortableFields` (absent or `null`: from the data),
/// `listFields` and `detailFields` (what rows and detail pages show; `null`: as the original apps),
/// `rankingField` (a field that breaks ties within a tier, `-population`; `null`: none). A
/// member set to `null` takes its default again; `fields`, which `GET` adds (``CatalogField``), is
/// read-only and left as it is; any other member is a problem.
///
/// ```swift
/// let patch = try CatalogDocument.MergePatch(Array(#"{"typos":{"oneTypoFrom":4}}"#.utf8))
/// let changed = try SearchSettingsDocument.merging(patch, into: definition.searchSettings)
/// ```
public enum SearchSettingsDocument {
    static let members =
        "synonyms, stopWords, typos, searchableFields, filterableFields, facetFields, sortableFields, listFields, "
        + "detailFields, rankingField"
    /// The members a document may have; `fields` is shown, never set.
    static let memberNames = [
        "synonyms", "stopWords", "typos", "searchableFields", "filterableFields", "facetFields", "sortableFields",
        "listFields", "detailFields", "rankingField", "fields",
    ]
    static let typoMembers = "oneTypoFrom, twoTyposFrom, exemptWords, exemptFields"

    /// The document `GET` answers: the settings' members and, read-only, `fields`, the catalog's
    /// own fields (``CatalogField``) with what filters and facets make of them.
    public struct Shown: Encodable, Sendable {
        /// The settings.
        public var settings: SearchSettings
        /// The catalog's own fields, by name.
        public var fields: [CatalogField]

        /// Creates the document.
        public init(settings: SearchSettings, fields: [CatalogField]) {
            self.settings = settings
            self.fields = fields
        }

        enum CodingKeys: String, CodingKey {
            case fields
        }

        public func encode(to encoder: any Encoder) throws {
            try settings.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(fields, forKey: .fields)
        }
    }

    /// The settings `patch` makes of `current`.
    ///
    /// - Throws: ``CatalogChangeError`` `.invalid` with every problem of the result.
    public static func merging(_ patch: CatalogDocument.MergePatch, into current: SearchSettings)
        throws(CatalogChangeError) -> SearchSettings
    {
        let merged = CatalogDocument.merge(patch.tree, into: tree(of: current))
        guard case .object(let members) = merged else { throw .invalid(at: "", "the settings are not a JSON object") }
        var reader = TreeReader()
        let settings = reader.searchSettings(members)
        try reader.check(settings.problems())
        return settings
    }

    /// The settings as `GET` writes them, as a tree.
    static func tree(of settings: SearchSettings) -> JSONTree {
        // Settings always encode (strings, numbers and lists of them), and what the encoder
        // writes always parses.
        guard let bytes = try? JSONEncoder().encode(settings), let tree = try? JSONTree.parse(Array(bytes)) else {
            return .object([:])
        }
        return tree
    }
}

extension TreeReader {
    /// The search settings the members give; a member of the wrong type keeps its default (and
    /// is a problem).
    mutating func searchSettings(_ members: [String: JSONTree]) -> SearchSettings {
        var settings = SearchSettings()
        for name in members.keys.sorted() where !SearchSettingsDocument.memberNames.contains(name) {
            add(JSONPointer.make(name), "unknown member; search settings have " + SearchSettingsDocument.members)
        }
        if let value = members["synonyms"], let texts = strings(value, at: "/synonyms") {
            for (index, text) in texts.enumerated() {
                do {
                    settings.synonyms.append(try SynonymRule(parsing: text))
                } catch {
                    add("/synonyms/\(index)", "\(CatalogDocument.quoted(text)) \(error.message)")
                }
            }
        }
        if let value = members["stopWords"] { settings.stopWords = strings(value, at: "/stopWords") ?? [] }
        if let value = members["searchableFields"] {
            settings.searchableFields = strings(value, at: "/searchableFields") ?? [SearchSettings.everyField]
        }
        if let value = members["filterableFields"], value != .null {
            settings.filterableFields = strings(value, at: "/filterableFields")
        }
        if let value = members["facetFields"], value != .null {
            settings.facetFields = strings(value, at: "/facetFields")
        }
        if let value = members["sortableFields"], value != .null {
            settings.sortableFields = strings(value, at: "/sortableFields")
        }
        if let value = members["listFields"], value != .null {
            settings.listFields = strings(value, at: "/listFields")
        }
        if let value = members["detailFields"], value != .null {
            settings.detailFields = strings(value, at: "/detailFields")
        }
        if let value = members["rankingField"], value != .null {
            settings.rankingField = string(value, at: "/rankingField")
        }
        if let value = members["typos"], let typos = object(value, at: "/typos") {
            for (name, member) in typos {
                let pointer = JSONPointer.make("typos", name)
                switch name {
                case "oneTypoFrom": settings.typos.oneTypoFrom = length(member, at: pointer) ?? 5
                case "twoTyposFrom": settings.typos.twoTyposFrom = length(member, at: pointer) ?? 9
                case "exemptWords": settings.typos.exemptWords = strings(member, at: pointer) ?? []
                case "exemptFields": settings.typos.exemptFields = strings(member, at: pointer) ?? ["id"]
                default: add(pointer, "unknown member; typos have " + SearchSettingsDocument.typoMembers)
                }
            }
        }
        return settings
    }

    /// A word length: a whole number in ``TypoSettings/lengthRange``.
    private mutating func length(_ value: JSONTree, at pointer: String) -> Int? {
        let range = TypoSettings.lengthRange
        let expected = "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let literal) = value else {
            add(pointer, expected + ", not \(value.kind)")
            return nil
        }
        guard let number = Int(literal), range.contains(number) else {
            add(pointer, expected)
            return nil
        }
        return number
    }
}
