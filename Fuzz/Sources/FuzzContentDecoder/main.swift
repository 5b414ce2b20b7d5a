// libFuzzer target: the decoder of feed bodies (Content-Encoding gzip, deflate as zlib or raw,
// identity), then the XML reader over what it decoded. The first byte picks the coding, the size
// of the chunks the body arrives in, and the decoded-size limit. Any input must decode or fail
// with a ContentDecoder.Failure; the decoded bytes never pass the limit, no piece is larger than
// 64 KB, and the result does not depend on how the body was cut into chunks.
import CatalogImport
import CatalogModel
import Foundation

/// Decodes `body` in chunks of `chunk` bytes: the bytes, or the failure.
private func decode(_ body: UnsafeRawBufferPointer, _ coding: ContentDecoder.Coding, maxBytes: Int64, chunk: Int)
    -> Result<[UInt8], ContentDecoder.Failure>
{
    let decoder = ContentDecoder(coding: coding, maxBytes: maxBytes)
    var output: [UInt8] = []
    var start = 0
    do throws(ContentDecoder.Failure) {
        while start < body.count {
            let end = min(start + chunk, body.count)
            _ = try decoder.decode(UnsafeRawBufferPointer(rebasing: body[start..<end])) { piece in
                precondition(piece.count <= 64 * 1024, "a decoded piece of \(piece.count) bytes")
                output.append(contentsOf: piece)
                return true
            }
            start = end
        }
        try decoder.finish()
    } catch {
        precondition(decoder.decodedBytes <= maxBytes, "decoded \(decoder.decodedBytes) bytes past \(maxBytes)")
        return .failure(error)
    }
    precondition(decoder.decodedBytes == Int64(output.count), "decodedBytes does not count the output")
    precondition(output.count <= maxBytes, "decoded \(output.count) bytes past \(maxBytes)")
    return .success(output)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let options = data[0]
    let body = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let codings: [ContentDecoder.Coding] = [.identity, .gzip, .deflate, .gzip]
    let coding = codings[Int(options & 3)]
    let chunks = [1, 2, 3, 7, 64, 512, 4096, max(1, body.count)]
    let chunk = chunks[Int(options >> 2 & 7)]
    let limits: [Int64] = [1 << 10, 1 << 16, 1 << 20, 1 << 24]
    let maxBytes = limits[Int(options >> 6 & 3)]

    let cut = decode(body, coding, maxBytes: maxBytes, chunk: chunk)
    let whole = decode(body, coding, maxBytes: maxBytes, chunk: max(1, body.count))
    switch (cut, whole) {
    case (.success(let a), .success(let b)):
        precondition(a == b, "chunks of \(chunk) decode to other bytes than the whole body")
    case (.failure(let a), .failure(let b)):
        // zlib's reasons may name the first bad spot differently; the kind of failure may not differ.
        precondition(kind(a) == kind(b), "chunks of \(chunk) fail with \(a), the whole body with \(b)")
    default:
        preconditionFailure("chunks of \(chunk) give \(cut), the whole body \(whole)")
    }

    // What a feed body decodes to goes on to the XML reader.
    guard case .success(let decoded) = whole, !decoded.isEmpty else { return 0 }
    do {
        try XMLRecordReader(data: Data(decoded), sourceName: "fuzz.xml").forEachRecord { _ in }
    } catch is ImportError {
    } catch {
        fatalError("the XML reader threw something that is not an ImportError: \(error)")
    }
    return 0
}

private func kind(_ failure: ContentDecoder.Failure) -> String {
    switch failure {
    case .tooLarge: "tooLarge"
    case .unsupported: "unsupported"
    case .corrupt: "corrupt"
    case .truncated: "truncated"
    case .trailingData: "trailingData"
    }
}
