import CatalogModel
import Foundation
import Testing

/// The catalog document `POST /api/v1/catalogs` and `PATCH` read: every problem at its JSON
/// pointer, merge patches as RFC 7396 says, and the shape `GET` shows read back unchanged.
@Suite struct CatalogDocumentTests {
    static let detail = CatalogDetail(
        id: "cookbook", title: "Szakácskönyv", locale: "hu", count: 3, scopes: ["Összes", "Levesek"],
        fields: ["id", "name", "hot"], sections: ["A", "CS", "#"], roles: ["title": "name", "featured": "hot"],
        types: ["weight": .number], labels: ["complexity": ["hu": "Idő", "en": "Time"]],
        scopeDefinitions: [ScopeDefinition(label: "Levesek", categories: ["Levesek"])], flatList: false,
        rowTint: RowTint(red: 180, green: 190, blue: 150), listFields: ["name", "subtitle"])

    func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    func problems(_ body: () throws -> Any) -> [String: String] { changeProblems(body) }

    @Test func aNewCatalogTakesDefaults() throws {
        let (id, settings) = try CatalogDocument.creation(json(#"{"id":"pantry"}"#))
        #expect(id == "pantry")
        #expect(settings == CatalogSettings(title: "pantry", locale: "en"))
        let (_, full) = try CatalogDocument.creation(
            json(
                #"{"id":"p","title":"Kamra","locale":"hu","fields":["name","kg"],"roles":{"title":"name"},"#
                    + #""types":{"kg":"number"},"labels":{"kg":{"hu":"Súly"}},"#
                    + ##""scopeDefinitions":[{"label":"Mind"}],"flatList":true,"rowTint":"#b4be96"}"##))
        #expect(full.title == "Kamra" && full.locale == "hu" && full.fields == ["name", "kg"])
        #expect(full.roles == [.title: "name"] && full.types == ["kg": .number])
        #expect(full.labels == ["kg": ["hu": "Súly"]])
        #expect(full.scopes == [ScopeDefinition(label: "Mind", categories: [])])
        #expect(full.flatList && full.rowTint == RowTint(red: 180, green: 190, blue: 150))
    }

    /// A catalog read with GET can be posted elsewhere as it is: what follows from the records is
    /// ignored, the rest is its settings.
    @Test func whatGETShowsCanBePosted() throws {
        let body = try JSONEncoder().encode(Self.detail)
        let (id, settings) = try CatalogDocument.creation(Array(body))
        #expect(id == "cookbook")
        #expect(settings == Self.detail.settings)
    }

    /// The search settings a catalog's document shows are changed through `…/settings`: a patch
    /// may repeat them as they are, never change them.
    @Test func searchSettingsAreShownNotSet() throws {
        #expect(
            try CatalogDocument.merging(json(#"{"listFields":["name","subtitle"]}"#), into: Self.detail)
                == Self.detail.settings)
        let changed = problems {
            try CatalogDocument.merging(json(#"{"listFields":["id"],"detailFields":["name"]}"#), into: Self.detail)
        }
        #expect(changed.keys.sorted() == ["/detailFields", "/listFields"])
        #expect(changed["/listFields"]?.contains("PATCH /api/v1/catalogs/{id}/settings") == true)
        // A new catalog's document may hold them (as GET shows them): they are set apart.
        #expect(try CatalogDocument.creation(json(#"{"id":"x","listFields":["id"],"detailFields":null}"#)).id == "x")
    }

    /// Every bad member is listed at once, each at its pointer.
    @Test func everyProblemIsListedWithItsPointer() {
        let found = problems {
            try CatalogDocument.creation(
                json(
                    #"{"id":"no good","title":" ","locale":7,"fields":["a","b","a",""],"#
                        + #""roles":{"colour":"x","price":""},"types":{"w":"float"},"#
                        + #""labels":{"price":{"zz":"P","de":""},"a/b":{"de":"X"}},"scopeDefinitions":[{"label":"A"},"#
                        + #"{"label":"A","x":1}],"flatList":"yes","rowTint":"blue","extra":null}"#),
                localeProblem: { _ in "never asked: the locale is no string" })
        }
        #expect(
            found.keys.sorted() == [
                "/extra", "/fields/2", "/fields/3", "/flatList", "/id", "/labels/price/de", "/labels/price/zz",
                "/locale", "/roles/colour", "/roles/price", "/rowTint", "/scopeDefinitions/1/label",
                "/scopeDefinitions/1/x", "/title", "/types/w",
            ])
        #expect(found["/locale"] == "must be a string, not a number")
        #expect(found["/roles/colour"]?.hasPrefix("unknown role; roles: id, title,") == true)
        #expect(found["/title"] == "must not be empty")
        // The values are checked whatever the types of the other members.
        let values = problems {
            try CatalogDocument.creation(
                json(
                    #"{"id":"ok","title":" ","locale":"xx","fields":["a","b","a",""],"roles":{"price":""},"#
                        + #""labels":{"price":{"zz":"P","de":""},"a/b~":{"de":"X"}},"#
                        + #""scopeDefinitions":[{"label":"A"},{"label":"A"}]}"#),
                localeProblem: { $0 == "xx" ? "unknown locale" : nil })
        }
        #expect(
            values.keys.sorted() == [
                "/fields/2", "/fields/3", "/labels/price/de", "/labels/price/zz", "/locale", "/roles/price",
                "/scopeDefinitions/1/label", "/title",
            ])
        #expect(values["/locale"] == "unknown locale")
        #expect(values["/fields/2"] == #""a" is named twice; field names are unique"#)
        #expect(values["/labels/price/zz"] == #""zz" is not a language tag such as de, hu or pt-BR"#)
        #expect(problems { try CatalogDocument.creation(json(#"{"title":"T"}"#)) }.keys.sorted() == ["/id"])
        #expect(
            problems { try CatalogDocument.creation(json("[1]")) } == ["": "a catalog is a JSON object, not an array"])
    }

    @Test func pointersEscapeTheirTokens() {
        #expect(JSONPointer.make("labels", "a/b~c", "de") == "/labels/a~1b~0c/de")
        #expect(JSONPointer.make("a/\u{301}~\u{301}") == "/a~1\u{301}~0\u{301}")
        #expect(JSONPointer.tokens("/labels/a~1b~0c/\u{301}/") == ["labels", "a/b~c", "\u{301}", ""])
        #expect(JSONPointer.tokens("") == [])
        let found = problems {
            try CatalogDocument.creation(json(#"{"id":"x","labels":{"a/b~c":{"de":""}}}"#))
        }
        #expect(found.keys.sorted() == ["/labels/a~1b~0c/de"])
    }

    @Test func notJSONIsMalformed() throws {
        let error = try #require(throws: CatalogChangeError.self) { try CatalogDocument.creation(json("{\"id\":")) }
        #expect(error.code == .malformed)
        let patch = try #require(throws: CatalogChangeError.self) {
            try CatalogDocument.merging([], into: Self.detail)
        }
        #expect(patch.code == .malformed)
    }

    /// RFC 7396: null removes, objects merge member by member, everything else replaces.
    @Test func mergePatchesMergeObjectsAndReplaceTheRest() throws {
        let changed = try CatalogDocument.merging(
            json(
                #"{"title":"Konyha","roles":{"title":null,"subtitle":"by"},"labels":{"complexity":{"en":null,"de":"Zeit"}},"#
                    + #""fields":["name"],"scopeDefinitions":null,"rowTint":null,"types":{"weight":"text"}}"#),
            into: Self.detail)
        #expect(changed.title == "Konyha")
        #expect(changed.locale == "hu")
        #expect(changed.roles == [.featured: "hot", .subtitle: "by"])
        #expect(changed.labels == ["complexity": ["hu": "Idő", "de": "Zeit"]])
        #expect(changed.fields == ["name"])
        #expect(changed.scopes.isEmpty)
        #expect(changed.rowTint == nil)
        #expect(changed.types == ["weight": .text])
        // An empty patch changes nothing; the whole GET document as a patch neither.
        #expect(try CatalogDocument.merging(json("{}"), into: Self.detail) == Self.detail.settings)
        let whole = Array(try JSONEncoder().encode(Self.detail))
        #expect(try CatalogDocument.merging(whole, into: Self.detail) == Self.detail.settings)
        // A label group set to null goes whole.
        let noLabels = try CatalogDocument.merging(json(#"{"labels":{"complexity":null}}"#), into: Self.detail)
        #expect(noLabels.labels.isEmpty)
    }

    @Test func aPatchMayOnlyRepeatWhatTheRecordsDecide() {
        let found = problems {
            try CatalogDocument.merging(
                json(#"{"id":"other","count":4,"scopes":["Összes","Levesek"],"sections":null,"title":null}"#),
                into: Self.detail)
        }
        #expect(found.keys.sorted() == ["/count", "/id", "/sections", "/title"])
        #expect(found["/id"]?.contains("cannot change") == true)
        #expect(
            problems { try CatalogDocument.merging(json(#"{"id":"cookbook","count":3}"#), into: Self.detail) }.isEmpty)
        #expect(
            problems { try CatalogDocument.merging(json(#"{"id":null}"#), into: Self.detail) }.keys.sorted() == ["/id"])
        #expect(problems { try CatalogDocument.merging(json("7"), into: Self.detail) }.keys.sorted() == [""])
    }

    /// Only a new locale is asked about: a catalog keeps the one it has.
    @Test func onlyANewLocaleIsChecked() throws {
        var asked: [String] = []
        _ = try CatalogDocument.merging(json(#"{"title":"T"}"#), into: Self.detail) {
            asked.append($0); return "no"
        }
        #expect(asked.isEmpty)
        let found = problems {
            try CatalogDocument.merging(json(#"{"locale":"xx"}"#), into: Self.detail) { "unknown \($0)" }
        }
        #expect(found == ["/locale": "unknown xx"])
    }

    @Test func changesAreClassifiedByWhatTheyTouch() {
        let settings = Self.detail.settings
        var other = settings
        #expect(settings.change(to: other) == .none)
        other.labels = [:]
        other.title = "New"
        other.scopes = []
        #expect(settings.change(to: other) == .definition)
        other.locale = "de"
        #expect(settings.change(to: other) == .rebuild)
        other.roles[.subtitle] = "by"
        #expect(settings.change(to: other) == .remap)
        // A role mapped to the field of its own name is the default: no remapping.
        var same = settings
        same.roles[.subtitle] = "subtitle"
        #expect(settings.change(to: same) == .definition)
        #expect(same.applied(to: CatalogDefinition(id: "x", title: "x", locale: "en")).mapping[.subtitle] == nil)
    }
}
