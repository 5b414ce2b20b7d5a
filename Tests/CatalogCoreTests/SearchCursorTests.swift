import CatalogCore
import CatalogDemo
import CatalogStorage
import Foundation
import Testing

/// Search cursors come back from clients as text (`after=`): every kind reads back as it was
/// written, and no text, however damaged, crashes the reader or reads as a cursor that writes
/// another text.
@Suite struct SearchCursorTests {
    static let examples: [SearchCursor] = [
        .ranked(tier: 0, document: 0), .ranked(tier: 10, document: 1_234_567), .ordered(position: 42),
        .rankedKey(tier: 4, length: 12, sortKey: [1, 2, 3], id: "r01"),
        .rankedValueKey(tier: 2, value: [0, 64, 9], length: 7, sortKey: [5, 6], id: "Ünnep/2"),
        .rankedValueKey(tier: 9, value: nil, length: 0, sortKey: [], id: "x"),
        .orderedKey(price: 12.5, key: BrowseKey(section: 3, sortKey: [7, 7], id: "p001")),
        .orderedKey(price: nil, key: BrowseKey(section: 0, sortKey: [], id: "a")),
        .sortedKey(values: [[2, 65, 66], nil], key: BrowseKey(section: 1, sortKey: [9], id: "c3")),
    ]

    @Test func everyKindReadsBackAsWritten() throws {
        for cursor in Self.examples {
            #expect(try SearchCursor(parsing: cursor.text) == cursor, "\(cursor.text)")
        }
    }

    /// Random and damaged texts, from a fixed seed: each is refused with `.invalidArgument` or
    /// reads as a cursor whose own text reads back to it.
    @Test func damagedTextsAreRefusedNeverMisread() throws {
        var generator = SplitMix64(seed: 20_261_206)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.=+/ ")
        var texts: [String] = []
        for cursor in Self.examples {
            let text = Array(cursor.text)
            for end in 0...text.count { texts.append(String(text.prefix(end))) }
            for _ in 0..<200 {
                var damaged = text
                let place = Int(generator.next() % UInt64(damaged.count))
                damaged[place] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                texts.append(String(damaged))
            }
        }
        for _ in 0..<5_000 {
            let letter = ["r", "o", "k", "v", "p", "s"][Int(generator.next() % 6)]
            let length = Int(generator.next() % 60)
            texts.append(
                letter + String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
        }
        for text in texts {
            let cursor: SearchCursor
            do {
                cursor = try SearchCursor(parsing: text)
            } catch {
                #expect(error.code == .invalidArgument)
                continue
            }
            let again = try SearchCursor(parsing: cursor.text)
            #expect(again == cursor, "\(text)")
        }
    }
}
