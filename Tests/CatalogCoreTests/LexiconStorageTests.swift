import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import Testing

/// A lexicon is read where its stored form lies, on the heap or in a mapped file, and a damaged
/// stored form is refused when it is loaded, never read past its end later.
@Suite struct LexiconStorageTests {
    /// The stored lexicon of a small built catalog.
    static func storedLexicon() throws -> [UInt8] {
        let definition = CatalogDefinition(id: "t", title: "T", locale: "de")
        let builder = try CatalogIndexBuilder(definition: definition, collation: LetterCollation())
        for record in IndexBuilderTests.records() { try builder.add(record) }
        let memory = MemoryIndex()
        _ = try builder.finish(into: memory)
        return try #require(memory.blobs[SearchBlobs.lexicon])
    }

    /// A fresh empty directory.
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lexicon-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Everything a search asks of a lexicon, as text.
    static func answers(_ lexicon: Lexicon) -> [String] {
        var answers: [String] = []
        for index in 0..<lexicon.count {
            var line = String(decoding: lexicon.term(at: index), as: UTF8.self) + " \(lexicon.documentCount(at: index))"
            switch lexicon.postings(at: index) {
            case .inline(let documents): line += " inline \(Array(documents))"
            case .stored(let term, let chunks): line += " stored \(term) \(chunks)"
            }
            answers.append(line)
        }
        answers.append("\(lexicon.range(prefix: [IndexTermKind.titleWord.rawValue] + Array("ot".utf8)))")
        answers.append("\(lexicon.index(of: [IndexTermKind.titleWord.rawValue] + Array("drums".utf8)) ?? -1)")
        return answers
    }

    @Test func aMappedLexiconAnswersAsTheHeapCopyAndLeavesNoFile() throws {
        let stored = try Self.storedLexicon()
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = IndexFiles(directory: directory)
        // Written in pieces of 1,000 bytes, as an engine streams a blob.
        let bytes = try #require(
            try files.load { write in
                try stored.withUnsafeBytes { all in
                    for start in stride(from: 0, to: all.count, by: 1_000) {
                        try write(UnsafeRawBufferPointer(rebasing: all[start..<min(start + 1_000, all.count)]))
                    }
                }
                return true
            })
        #expect(bytes.isMapped)
        #expect(bytes.array == stored)
        let mapped = try Lexicon(bytes: bytes)
        let heap = try Lexicon(serialized: stored)
        #expect(mapped.isMapped && !heap.isMapped)
        #expect(Self.answers(mapped) == Self.answers(heap))
        #expect(mapped.count > 1_000)
        // The file has no name: nothing is left to clean up, whatever way the process ends.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func aDirectoryThatCannotTakeFilesKeepsTheBytesOnTheHeap() throws {
        let stored = try Self.storedLexicon()
        let files = IndexFiles(directory: "/nonexistent-\(UUID().uuidString)")
        let bytes = try #require(
            try files.load { write in
                try stored.withUnsafeBytes(write)
                return true
            })
        #expect(!bytes.isMapped)
        #expect(bytes.array == stored)
        #expect(try files.load { _ in false } == nil)
        #expect(try IndexFiles(directory: NSTemporaryDirectory()).load { _ in false } == nil)
    }

    @Test func anEmptyBlobIsHeldOnTheHeap() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = try #require(try IndexFiles(directory: directory).load { _ in true })
        #expect(bytes.count == 0 && !bytes.isMapped)
    }

    /// Every kind of damage is refused at load with the engine's error.
    @Test func aDamagedLexiconIsRefusedWhenLoaded() throws {
        let stored = try Self.storedLexicon()
        let count = Int(stored[4]) | Int(stored[5]) << 8 | Int(stored[6]) << 16 | Int(stored[7]) << 24
        let arenaBytes = Int(stored[8]) | Int(stored[9]) << 8 | Int(stored[10]) << 16 | Int(stored[11]) << 24
        let starts = 16 + arenaBytes
        let references = starts + 4 * (count + 1) + 8 * count
        func patched(at offset: Int, _ value: UInt32) -> [UInt8] {
            var bytes = stored
            for shift in 0..<4 { bytes[offset + shift] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(shift))) }
            return bytes
        }
        // The first inline reference, pointed past the pool.
        let inline = try #require(
            (0..<count).first { stored[references + 4 * $0 + 3] & 0x80 != 0 })
        let damaged: [(String, [UInt8])] = [
            ("empty", []),
            ("another magic", [UInt8]("CLX9".utf8) + stored.dropFirst(4)),
            ("cut short", Array(stored.dropLast(3))),
            ("one byte more", stored + [0]),
            ("more terms than it holds", patched(at: 4, UInt32(count + 1))),
            ("terms out of order in the arena", patched(at: starts + 4, UInt32(arenaBytes + 1))),
            ("documents past the pool", patched(at: references + 4 * inline, 0x8000_0000 | 0x7FFF_FFFF)),
        ]
        for (what, bytes) in damaged {
            #expect(throws: StorageError.self, "\(what)") { try Lexicon(serialized: bytes) }
        }
    }
}
