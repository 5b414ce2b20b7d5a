import CatalogJSON
import Testing

@Suite struct JSONObjectWriterTests {
    static func text(_ write: (inout JSONOutput) -> Void) -> String {
        var output = JSONOutput()
        write(&output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test func commasAndKeysArePlaced() {
        let json = Self.text { output in
            output.object { object in
                object.string("code", "not_found")
                object.string("none", nil)
                object.integer("count", 3)
                object.boolean("ok", false)
                object.strings("tags", ["a", "<b>"])
                object.member(named: "dyn\"amic") { $0.integer(nil) }
                object.member("nested") { output in output.object { $0.integer("n", 1) } }
            }
        }
        #expect(
            json
                == #"{"code":"not_found","none":null,"count":3,"ok":false,"tags":["a","\u003cb\u003e"],"#
                + #""dyn\"amic":null,"nested":{"n":1}}"#)
    }

    @Test func emptyContainers() {
        #expect(Self.text { $0.object { _ in } } == "{}")
        #expect(Self.text { $0.array([Int]()) { $0.integer($1) } } == "[]")
        #expect(Self.text { $0.array([1, 2, 3]) { $0.integer($1) } } == "[1,2,3]")
    }

    @Test func writtenAfterWhatCameBefore() {
        let json = Self.text { output in
            output.raw("[")
            output.object { $0.integer("a", 1) }
            output.raw(",")
            output.object { $0.integer("b", 2) }
            output.raw("]")
        }
        #expect(json == #"[{"a":1},{"b":2}]"#)
    }

    struct Failure: Error {}

    @Test func aThrowingBodyGivesTheDocumentBack() {
        var output = JSONOutput()
        output.raw("[")
        #expect(throws: Failure.self) {
            try output.object { object in
                object.integer("a", 1)
                throw Failure()
            }
        }
        #expect(String(decoding: output.bytes, as: UTF8.self) == #"[{"a":1"#)
    }
}
