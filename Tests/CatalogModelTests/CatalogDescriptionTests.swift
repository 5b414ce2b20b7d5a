import CatalogModel
import Foundation
import Testing

/// A catalog's description: kept in its definition's JSON, shown in the catalog list and the
/// catalog's own JSON (null when there is none, and absent from older servers' answers), set
/// and cleared by a catalog document, and checked there.
@Suite struct CatalogDescriptionTests {
    func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    func problems(_ body: () throws -> Any) -> [String: String] { changeProblems(body) }

    @Test func theDefinitionKeepsItThroughJSON() throws {
        var definition = CatalogDefinition(id: "pantry", title: "Kamra", locale: "hu")
        definition.description = "Ami a kamrában van.\nMásodik sor."
        let data = try JSONEncoder().encode(definition)
        #expect(String(decoding: data, as: UTF8.self).contains(#""description":"Ami a kamrában van.\nMásodik sor.""#))
        #expect(try JSONDecoder().decode(CatalogDefinition.self, from: data) == definition)
        // A definition without one (stored before descriptions existed) reads as none and writes no key.
        let plain = try JSONEncoder().encode(CatalogDefinition(id: "pantry", title: "Kamra", locale: "hu"))
        #expect(!String(decoding: plain, as: UTF8.self).contains("description"))
        #expect(try JSONDecoder().decode(CatalogDefinition.self, from: plain).description == nil)
        // An export's definition (published) keeps it.
        #expect(definition.published.description == definition.description)
    }

    @Test func summariesAndDetailsShowItOrNull() throws {
        let summary = CatalogSummary(id: "p", title: "P", locale: "en", count: 1_234, description: "Tools.")
        let written = try #require(
            JSONSerialization.jsonObject(with: Data(summary.jsonBytes)) as? [String: Any])
        #expect(written["description"] as? String == "Tools.")
        #expect(try JSONDecoder().decode(CatalogSummary.self, from: Data(summary.jsonBytes)) == summary)
        #expect(try JSONDecoder().decode(CatalogSummary.self, from: JSONEncoder().encode(summary)) == summary)
        let none = CatalogSummary(id: "p", title: "P", locale: "en", count: 0)
        #expect(String(decoding: none.jsonBytes, as: UTF8.self).contains(#""description":null"#))
        #expect(String(decoding: try JSONEncoder().encode(none), as: UTF8.self).contains(#""description":null"#))
        // An older server sends no description: it decodes as none.
        let old = try JSONDecoder().decode(
            CatalogSummary.self, from: Data(#"{"id":"p","title":"P","locale":"en","count":3}"#.utf8))
        #expect(old.description == nil)

        let detail = CatalogDetail(
            id: "p", title: "P", locale: "en", count: 3, scopes: [], fields: [], sections: [], description: "Tools.")
        let decoded = try JSONDecoder().decode(CatalogDetail.self, from: JSONEncoder().encode(detail))
        #expect(decoded == detail)
        #expect(detail.summary.description == "Tools.")
        #expect(detail.settings.description == "Tools.")
        let oldDetail = try JSONDecoder().decode(
            CatalogDetail.self,
            from: Data(#"{"id":"p","title":"P","locale":"en","count":3,"scopes":[],"fields":[],"sections":[]}"#.utf8))
        #expect(oldDetail.description == nil)
        let noneDetail = CatalogDetail(
            id: "p", title: "P", locale: "en", count: 3, scopes: [], fields: [], sections: [])
        #expect(String(decoding: try JSONEncoder().encode(noneDetail), as: UTF8.self).contains(#""description":null"#))
    }

    @Test func documentsSetAndClearIt() throws {
        let (_, created) = try CatalogDocument.creation(json(#"{"id":"p","description":"Tools and cups."}"#))
        #expect(created.description == "Tools and cups.")
        let detail = CatalogDetail(
            id: "p", title: "P", locale: "en", count: 3, scopes: [], fields: [], sections: [], description: "Old.")
        #expect(try CatalogDocument.merging(json(#"{"description":"New."}"#), into: detail).description == "New.")
        #expect(try CatalogDocument.merging(json(#"{"description":null}"#), into: detail).description == nil)
        #expect(try CatalogDocument.merging(json(#"{"description":" "}"#), into: detail).description == nil)
        #expect(try CatalogDocument.merging(json(#"{"title":"Q"}"#), into: detail).description == "Old.")
        // The whole GET document as a patch changes nothing.
        let whole = Array(try JSONEncoder().encode(detail))
        #expect(try CatalogDocument.merging(whole, into: detail) == detail.settings)
        // Applied to a definition, it becomes the definition's; a change of it touches only the definition.
        let settings = try CatalogDocument.merging(json(#"{"description":"New."}"#), into: detail)
        #expect(settings.applied(to: CatalogDefinition(id: "p", title: "P", locale: "en")).description == "New.")
        #expect(detail.settings.change(to: settings) == .definition)
    }

    @Test func badDescriptionsAreProblemsAtTheirPointer() {
        let long = String(repeating: "é", count: CatalogDocument.maxDescriptionLength + 1)
        #expect(
            problems { try CatalogDocument.creation(json(#"{"id":"p","description":"\#(long)"}"#)) } == [
                "/description": "is 501 characters long; a description has at most 500"
            ])
        let exact = String(repeating: "é", count: CatalogDocument.maxDescriptionLength)
        #expect(problems { try CatalogDocument.creation(json(#"{"id":"p","description":"\#(exact)"}"#)) }.isEmpty)
        #expect(
            problems { try CatalogDocument.creation(json(#"{"id":"p","description":"a\u0000b"}"#)) } == [
                "/description": "holds the control character U+0000 at character 2; a description is plain text"
            ])
        #expect(
            problems { try CatalogDocument.creation(json(#"{"id":"p","description":"ab\u001B[31m"}"#)) } == [
                "/description": "holds the control character U+001B at character 3; a description is plain text"
            ])
        #expect(
            problems { try CatalogDocument.creation(json(#"{"id":"p","description":7}"#)) } == [
                "/description": "must be a string, not a number"
            ])
        // Line breaks and tabs are plain text.
        #expect(problems { try CatalogDocument.creation(json(#"{"id":"p","description":"a\nb\tc"}"#)) }.isEmpty)
        // Settings made without a document (the command line's) are checked the same.
        var settings = CatalogSettings(title: "P", locale: "en")
        settings.description = long
        #expect(settings.problems().map(\.pointer) == ["/description"])
    }
}
