import CatalogModel
import Foundation
import Testing

/// Hostile bodies: each is refused with problems (never a crash, a hang or a huge allocation).
@Suite struct RecordChangeHostileInputTests {
    typealias F = RecordChangeFixtures

    static let deep = 100_000

    static let bodies: [(String, [UInt8])] = [
        ("deep arrays", [UInt8](repeating: 0x5B, count: deep) + [UInt8](repeating: 0x5D, count: deep)),
        ("deep objects", Array(String(repeating: #"{"a":"#, count: deep).utf8)),
        (
            "deep field",
            Array(
                (#"{"title":"T","fields":{"n":"# + String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
                    + "}}").utf8)
        ),
        ("invalid UTF-8", [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]),
        ("overlong", Array(#"{"title":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)),
        ("encoded surrogate", Array(#"{"title":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)),
        ("truncated sequence", Array(#"{"title":""#.utf8) + [0xE2, 0x82]),
        ("past U+10FFFF", Array(#"{"title":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8)),
        ("NUL byte", Array(#"{"title":"a"#.utf8) + [0] + Array(#""}"#.utf8)),
        ("NUL outside strings", [0x7B, 0x00, 0x7D]),
        ("lone high surrogate", Array(#"{"title":"\ud800","fields":{}}"#.utf8)),
        ("lone low surrogate", Array(#"{"title":"\udc00x","fields":{}}"#.utf8)),
        ("huge exponent", Array(#"{"title":"T","price":1e999999999,"quantity":1e999999999,"fields":{}}"#.utf8)),
        (
            "huge number",
            Array((#"{"title":"T","price":"# + String(repeating: "9", count: 100_000) + #","fields":{}}"#).utf8)
        ),
        (
            "huge quantity",
            Array((#"{"title":"T","quantity":-"# + String(repeating: "9", count: 10_000) + #","fields":{}}"#).utf8)
        ),
        ("unterminated", Array(#"[{"upsert":{"title":"#.utf8)),
        ("UTF-16", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]),
        ("just a BOM", [0xEF, 0xBB, 0xBF]),
    ]

    @Test(arguments: bodies)
    func hostileBodiesAreProblems(name: String, body: [UInt8]) {
        _ = F.problems { () throws(RecordProblems) in try RecordChangeReader.record(body, id: "a", definition: F.shop) }
        _ = F.problems { () throws(RecordProblems) in try RecordChangeReader.batch(body, definition: F.shop) }
        _ = F.problems { () throws(RecordProblems) in try RecordChangeReader.records(body, definition: F.sequencers) }
        _ = F.problems { () throws(RecordProblems) in try MergePatch.apply(body, to: F.full, definition: F.shop) }
        if name != "just a BOM" {
            #expect(
                !F.problems { () throws(RecordProblems) in
                    try RecordChangeReader.record(body, id: "a", definition: F.shop)
                }.isEmpty)
        }
    }

    @Test func problemsNameTheByte() {
        let invalid = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.record(Self.bodies[3].1, id: "a", definition: F.shop)
        }
        #expect(invalid == [RecordProblem(pointer: "", message: "the body is not UTF-8 (byte 2)")])
        let deep = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.batch(Self.bodies[0].1, definition: F.shop)
        }
        #expect(deep == [RecordProblem(pointer: "/0", message: "not JSON (byte 65: nesting deeper than 64 levels)")])
        let surrogate = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.record(Self.bodies[10].1, id: "a", definition: F.shop)
        }
        #expect(
            surrogate == [RecordProblem(pointer: "", message: #"not JSON (byte 16: lone surrogate in a \u escape)"#)])
        let field = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.record(Self.bodies[2].1, id: "a", definition: F.shop)
        }
        #expect(field.count == 1)
    }

    /// Random changes of valid bodies never crash any reader, and what reads round-trips.
    @Test func randomBodiesNeverCrash() {
        var generator = SplitMix(seed: 19)
        let seeds = [
            F.full.jsonBytes,
            F.bytes(#"[{"upsert":{"id":"a","title":"A","fields":{"x":[1,"2",null]}}},{"delete":"b"}]"#),
            F.bytes(#"{"delete":"a"}"# + "\n" + #"{"upsert":{"TitelText":"T","Kategorie":"Windows"}}"#),
            F.bytes(#"{"title":"T","fields":{"a":null,"b":{"c":1}},"price":null}"#),
        ]
        for round in 0..<4000 {
            var body = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(body.count + 1))
                switch generator.next() % 3 {
                case 0: body.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                case 1 where position < body.count: body.remove(at: position)
                default:
                    if position < body.count {
                        body[position] = Self.interesting[Int(generator.next() % UInt64(Self.interesting.count))]
                    }
                }
            }
            _ = F.problems { () throws(RecordProblems) in
                try RecordChangeReader.record(body, id: "a", definition: F.shop)
            }
            for definition in [F.shop, F.sequencers, F.products] {
                if let changes = try? RecordChangeReader.batch(body, definition: definition) {
                    for case .upsert(let record) in changes { Self.expectRoundTrip(record, definition) }
                }
                for record in (try? RecordChangeReader.records(body, definition: definition)) ?? [] {
                    Self.expectRoundTrip(record, definition)
                }
            }
            if let patched = try? MergePatch.apply(body, to: F.full, definition: F.shop) {
                Self.expectRoundTrip(patched, F.shop)
                #expect((try? MergePatch.apply(body, to: patched, definition: F.shop)) == patched)
            }
        }
    }

    /// What reads is written as the API's JSON and reads back the same.
    static func expectRoundTrip(_ record: Record, _ definition: CatalogDefinition) {
        #expect((try? RecordChangeReader.record(record.jsonBytes, id: record.id, definition: definition)) == record)
    }

    static let interesting: [UInt8] = Array(#"{}[]",:0-.e\un"#.utf8) + [0x00, 0x0A, 0xFF, 0xC3, 0x80]
}

/// A small deterministic generator (SplitMix64), so a failing round can be replayed.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
