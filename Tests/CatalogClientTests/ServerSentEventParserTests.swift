import CatalogClient
import Testing

/// The event-stream reader against the HTML standard's rules, each stream read whole, cut at every
/// byte boundary (once and twice) and byte by byte: the events are the same however the bytes
/// arrive.
@Suite struct ServerSentEventParserTests {
    /// A stream and the events (and reconnection time) it holds.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var stream: [UInt8]
        var events: [ServerSentEvent]
        var retry: Int? = nil

        var description: String { name }

        init(_ name: String, _ text: String, _ events: [ServerSentEvent], retry: Int? = nil) {
            self.name = name
            stream = Array(text.utf8)
            self.events = events
            self.retry = retry
        }

        init(_ name: String, bytes: [UInt8], _ events: [ServerSentEvent]) {
            self.name = name
            stream = bytes
            self.events = events
        }
    }

    static let cases: [Case] = [
        Case(
            "the server's change event", "id: 7\nevent: change\ndata: {\"number\":7}\n\n",
            [ServerSentEvent(type: "change", data: "{\"number\":7}", lastEventID: "7")]),
        Case("CR LF line ends", "data: a\r\ndata: b\r\n\r\n", [ServerSentEvent(data: "a\nb")]),
        Case(
            "CR line ends", "event: x\rdata: a\r\rdata: b\r\r",
            [
                ServerSentEvent(type: "x", data: "a"), ServerSentEvent(data: "b"),
            ]),
        Case(
            "mixed line ends", "data: 1\r\n\ndata: 2\r\rdata: 3\n\r\n",
            [
                ServerSentEvent(data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3"),
            ]),
        Case(
            "multi-line data", "data: one\ndata:two\ndata:  three\ndata\n\n",
            [
                ServerSentEvent(data: "one\ntwo\n three\n")
            ]),
        Case(
            "comments and heartbeats are ignored", ": keep-alive\n:\ndata: x\n: inside\n\n: after\n",
            [ServerSentEvent(data: "x")]),
        Case(
            "an event without data is not dispatched", "event: nothing\n\nid: 3\n\ndata: y\n\n",
            [
                ServerSentEvent(data: "y", lastEventID: "3")
            ]),
        Case("empty data is an event", "data\n\ndata:\n\n", [ServerSentEvent(data: ""), ServerSentEvent(data: "")]),
        Case(
            "the last event id carries on", "id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
            [
                ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1"),
                ServerSentEvent(data: "c", lastEventID: ""),
            ]),
        Case(
            "an id with a NUL is ignored", "id: 5\ndata: a\n\nid: 6\u{0}\ndata: b\n\n",
            [
                ServerSentEvent(data: "a", lastEventID: "5"), ServerSentEvent(data: "b", lastEventID: "5"),
            ]),
        Case(
            "retry takes digits only", "retry: 2500\nretry: 3x\nretry: -1\nretry:\ndata: r\n\n",
            [
                ServerSentEvent(data: "r")
            ], retry: 2500),
        Case(
            "unknown fields and a field without a colon", "foo: bar\nDATA: no\nevent\ndata: k\n\n",
            [ServerSentEvent(data: "k")]),
        Case(
            "one space is stripped, not two", "data:  two spaces\nevent:  t\n\n",
            [
                ServerSentEvent(type: " t", data: " two spaces")
            ]),
        Case("a colon in the value stays", "data: a: b:c\n\n", [ServerSentEvent(data: "a: b:c")]),
        Case(
            "an unfinished event at the end is dropped", "data: done\n\ndata: half\n",
            [
                ServerSentEvent(data: "done")
            ]),
        Case("non-ASCII text", "data: Gulyásleves „jó“ 🍲\n\n", [ServerSentEvent(data: "Gulyásleves „jó“ 🍲")]),
        Case(
            "a byte order mark is skipped once", bytes: [0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8),
            [ServerSentEvent(data: "a")]),
        Case(
            "a second byte order mark is data",
            bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8),
            []),
        Case(
            "a start like a byte order mark is kept",
            bytes: [0xEF, 0xBB] + Array(": x\ndata: a\n\n".utf8), [ServerSentEvent(data: "a")]),
        Case(
            "invalid UTF-8 becomes U+FFFD", bytes: Array("data: a".utf8) + [0xFF] + Array("\n\n".utf8),
            [
                ServerSentEvent(data: "a\u{FFFD}")
            ]),
    ]

    /// Feeds `chunks` one after the other.
    static func parse(_ chunks: [ArraySlice<UInt8>]) throws -> ([ServerSentEvent], Int?) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += try parser.parse(chunk) }
        return (events, parser.reconnectionTime)
    }

    @Test(arguments: cases) func wholeStreams(_ example: Case) throws {
        let (events, retry) = try Self.parse([example.stream[...]])
        #expect(events == example.events)
        #expect(retry == example.retry)
    }

    @Test(arguments: cases) func cutAtEveryByteBoundary(_ example: Case) throws {
        let bytes = example.stream
        for cut in 0...bytes.count {
            let (events, retry) = try Self.parse([bytes[..<cut], bytes[cut...]])
            #expect(events == example.events, "cut at \(cut)")
            #expect(retry == example.retry)
        }
    }

    @Test(arguments: cases) func cutTwiceAtEveryPairOfBoundaries(_ example: Case) throws {
        let bytes = example.stream
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let (events, _) = try Self.parse([bytes[..<first], bytes[first..<second], bytes[second...]])
                #expect(events == example.events, "cut at \(first) and \(second)")
            }
        }
    }

    @Test(arguments: cases) func byteByByte(_ example: Case) throws {
        let (events, retry) = try Self.parse(example.stream.indices.map { example.stream[$0...$0] })
        #expect(events == example.events)
        #expect(retry == example.retry)
    }

    @Test func aCarriageReturnEndingAChunkAndALineFeedStartingTheNextAreOneLineEnd() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("data: a\r".utf8)).isEmpty)
        // The LF completes the CR: no empty line yet.
        #expect(try parser.parse(Array("\n".utf8)).isEmpty)
        #expect(try parser.parse(Array("\r\n".utf8)) == [ServerSentEvent(data: "a")])
    }

    @Test func eventsArriveAsSoonAsTheirEmptyLineDoes() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("id: 1\nevent: change\ndata: {}\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "")
        #expect(try parser.parse(Array("\n: keep-alive\n".utf8)).map(\.lastEventID) == ["1"])
        #expect(parser.lastEventID == "1" && parser.commentCount == 1)
    }

    @Test func aLineLongerThanTheLimitThrows() throws {
        var parser = ServerSentEventParser(maximumLength: 16)
        #expect(try parser.parse(Array("data: short\n\n".utf8)).count == 1)
        #expect(throws: ServerSentEventParser.TooLong(limit: 16)) {
            try parser.parse(Array("data: 0123456789abcdef\n".utf8))
        }
    }

    @Test func dataLongerThanTheLimitThrowsThoughEveryLineFits() throws {
        var parser = ServerSentEventParser(maximumLength: 16)
        #expect(throws: ServerSentEventParser.TooLong(limit: 16)) {
            try parser.parse(Array("data: 01234\ndata: 56789\ndata: abcde\n\n".utf8))
        }
    }
}
