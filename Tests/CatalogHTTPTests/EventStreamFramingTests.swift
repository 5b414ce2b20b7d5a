import Testing

@testable import CatalogHTTP

/// How events look on the wire, and what a handler reads of an event-stream request.
@Suite struct EventStreamFramingTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [
        ("one", "data: one\n\n"),
        ("", "data: \n\n"),
        ("a\nb", "data: a\ndata: b\n\n"),
        ("a\r\nb\rc", "data: a\ndata: b\ndata: c\n\n"),
        ("a\n", "data: a\ndata: \n\n"),
        ("\r\n\r\n", "data: \ndata: \ndata: \n\n"),
        (" leading", "data:  leading\n\n"),
    ])
    func dataBecomesOneLinePerLine(data: String, wire: String) {
        #expect(Self.text(EventStream.frame(id: nil, event: nil, data: data)) == wire)
    }

    @Test func idAndEventComeFirstAndStayOneLine() {
        #expect(
            Self.text(EventStream.frame(id: "7", event: "change", data: "x")) == "id: 7\nevent: change\ndata: x\n\n")
        #expect(
            Self.text(EventStream.frame(id: "7\r\n8\u{0}", event: "a\nb", data: "x"))
                == "id: 78\nevent: ab\ndata: x\n\n")
        #expect(
            Self.text(EventStream.frame(id: "", event: nil, data: "x")) == "id: \ndata: x\n\n", "an empty id resets")
    }

    @Test func commentsAreLinesStartingWithAColon() {
        #expect(Self.text(EventStream.commentFrame("keep-alive")) == ": keep-alive\n")
        #expect(Self.text(EventStream.commentFrame("two\nlines")) == ": two\n: lines\n")
        #expect(Self.text(EventStream.heartbeatFrame) == ": keep-alive\n")
    }

    @Test func theRequestSaysWhetherItWantsAStreamAndWhereToResume() throws {
        func request(_ headers: [(String, String)]) throws -> Request {
            try #require(Request(method: .get, target: "/changes", headers: HTTPHeaders(headers)))
        }
        #expect(try request([("Accept", "text/event-stream")]).acceptsEventStream)
        #expect(try request([("Accept", "application/json, Text/Event-Stream;q=0.5")]).acceptsEventStream)
        #expect(try !request([("Accept", "text/event-stream; q=0")]).acceptsEventStream)
        #expect(try !request([("Accept", "*/*")]).acceptsEventStream)
        #expect(try !request([]).acceptsEventStream)
        #expect(try request([("last-event-id", "42")]).lastEventID == "42")
        #expect(try request([]).lastEventID == nil)
    }
}
