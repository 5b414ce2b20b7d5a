import CatalogImport
import CatalogTestSupport
import Foundation
import Testing

@Suite struct ContentDecoderTests {
    private static let text = Array(String(repeating: "Klangwerk Studio, Taktmeister, Notenfluss. ", count: 400).utf8)

    /// Decodes `input` fed in chunks of `chunk` bytes.
    private func decode(
        _ input: [UInt8], _ coding: ContentDecoder.Coding, maxBytes: Int64 = 1 << 30, chunk: Int = 7
    ) throws -> [UInt8] {
        let decoder = ContentDecoder(coding: coding, maxBytes: maxBytes)
        var output: [UInt8] = []
        var start = 0
        while start < input.count {
            let end = min(start + chunk, input.count)
            let piece = Array(input[start..<end])
            _ = try piece.withUnsafeBytes { bytes in
                try decoder.decode(bytes) { decoded in
                    output.append(contentsOf: decoded)
                    return true
                }
            }
            start = end
        }
        try decoder.finish()
        #expect(decoder.decodedBytes == Int64(output.count))
        return output
    }

    @Test(arguments: [
        (Compression.Framing.gzip, ContentDecoder.Coding.gzip), (.zlib, .gzip), (.zlib, .deflate), (.raw, .deflate),
    ])
    func decodesEveryFraming(_ framing: Compression.Framing, _ coding: ContentDecoder.Coding) throws {
        let compressed = Compression.compress(Self.text, framing)
        for chunk in [1, 2, 3, 1000, compressed.count] {
            #expect(try decode(compressed, coding, chunk: chunk) == Self.text, "chunks of \(chunk)")
        }
    }

    @Test func concatenatedGzipMembers() throws {
        let first = Array("first member, ".utf8)
        let second = Array("second member".utf8)
        let body = Compression.compress(first, .gzip) + Compression.compress(second, .gzip)
        #expect(try decode(body, .gzip) == first + second)
        // deflate has one stream: bytes after it are an error.
        let zlib = Compression.compress(first, .zlib)
        #expect(throws: ContentDecoder.Failure.trailingData) { try decode(zlib + zlib, .deflate) }
    }

    @Test func bombsStopAtTheLimit() throws {
        let zeros = [UInt8](repeating: 0, count: 16 << 20)
        for framing in [Compression.Framing.gzip, .zlib, .raw] {
            let bomb = Compression.compress(zeros, framing)
            #expect(bomb.count < 64 * 1024)
            let coding: ContentDecoder.Coding = framing == .gzip ? .gzip : .deflate
            #expect(throws: ContentDecoder.Failure.tooLarge(limit: 1 << 20)) {
                try decode(bomb, coding, maxBytes: 1 << 20, chunk: 16 * 1024)
            }
            // Exactly at the limit is fine.
            #expect(try decode(bomb, coding, maxBytes: Int64(zeros.count), chunk: 16 * 1024).count == zeros.count)
        }
        // Identity bodies are counted the same way.
        #expect(throws: ContentDecoder.Failure.tooLarge(limit: 10)) {
            try decode(Array(repeating: 65, count: 11), .identity, maxBytes: 10)
        }
    }

    @Test func piecesAreSmallWhateverTheRatio() throws {
        let bomb = Compression.compress([UInt8](repeating: 0, count: 8 << 20), .gzip)
        let decoder = ContentDecoder(coding: .gzip, maxBytes: 1 << 30)
        var largest = 0
        _ = try bomb.withUnsafeBytes { bytes in
            try decoder.decode(bytes) { piece in
                largest = max(largest, piece.count)
                return true
            }
        }
        #expect(largest <= 64 * 1024)
        // The sink stops the decoding: nothing more is produced.
        let stopping = ContentDecoder(coding: .gzip, maxBytes: 1 << 30)
        var pieces = 0
        let going = try bomb.withUnsafeBytes { bytes in
            try stopping.decode(bytes) { _ in
                pieces += 1
                return false
            }
        }
        #expect(!going)
        #expect(pieces == 1)
    }

    @Test func brokenBodies() throws {
        let gzip = Compression.compress(Self.text, .gzip)
        #expect(throws: ContentDecoder.Failure.truncated) { try decode(Array(gzip.dropLast(20)), .gzip) }
        var corrupt = gzip
        corrupt[0] = 0x00
        #expect {
            try decode(corrupt, .gzip)
        } throws: { error in
            guard case .corrupt(let reason) = error as? ContentDecoder.Failure else { return false }
            return !reason.isEmpty
        }
        // An empty body is an empty document, whatever the coding says.
        #expect(try decode([], .gzip).isEmpty)
        #expect(try decode([], .deflate).isEmpty)
        #expect(throws: ContentDecoder.Failure.truncated) { try decode([0x78], .deflate) }
    }

    @Test(
        arguments: [
            (nil, ContentDecoder.Coding.identity), ("", .identity), ("identity", .identity), ("gzip", .gzip),
            ("x-gzip", .gzip), ("GZIP", .gzip), (" deflate ", .deflate), ("identity, gzip", .gzip),
        ] as [(String?, ContentDecoder.Coding)])
    func codingsFromHeaders(_ header: String?, _ coding: ContentDecoder.Coding) throws {
        #expect(try ContentDecoder.Coding(contentEncoding: header) == coding)
    }

    @Test(arguments: ["br", "zstd", "compress", "gzip, gzip", "gzip, br"])
    func otherCodingsAreRefused(_ header: String) {
        #expect {
            try ContentDecoder.Coding(contentEncoding: header)
        } throws: { error in
            guard case .unsupported = error as? ContentDecoder.Failure else { return false }
            return "\(error)".contains("not supported")
        }
    }
}
