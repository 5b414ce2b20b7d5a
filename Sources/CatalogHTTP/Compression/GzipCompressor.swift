import CZlib

/// Compresses bytes into the gzip format with zlib, in one piece or chunk by chunk.
///
/// Owns its `z_stream` and frees it in `deinit`. Not Sendable: one per response.
final class GzipCompressor {
    private var stream = z_stream()
    private var finished = false

    /// zlib's level: 5 keeps most of the size gain at a fraction of level 9's time.
    static let level: Int32 = 5

    init() {
        let status = czlib_gzip_init(&stream, Self.level)
        precondition(status == Z_OK, "zlib deflateInit2 failed: \(status)")
    }

    deinit {
        deflateEnd(&stream)
    }

    /// Compresses `input` in one go.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        let compressor = GzipCompressor()
        return compressor.compress(input, finish: true)
    }

    /// Compresses the next chunk; `finish` ends the stream and writes the trailer.
    func compress(_ input: [UInt8], finish: Bool) -> [UInt8] {
        precondition(!finished, "gzip stream already finished")
        var output: [UInt8] = []
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 64
        var buffer = [UInt8](repeating: 0, count: max(bound, 4096))
        input.withUnsafeBufferPointer { inputBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
            stream.avail_in = uInt(inputBuffer.count)
            repeat {
                buffer.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = uInt(outputBuffer.count)
                    _ = deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    output.append(contentsOf: outputBuffer[0..<(outputBuffer.count - Int(stream.avail_out))])
                }
            } while stream.avail_out == 0
        }
        stream.next_in = nil
        if finish { finished = true }
        return output
    }
}

/// A streamed body compressed on the fly.
final class GzipBodyStream: ResponseBodyStream {
    private let source: any ResponseBodyStream
    private let compressor = GzipCompressor()
    private var done = false

    init(_ source: any ResponseBodyStream) {
        self.source = source
    }

    func nextChunk() throws -> [UInt8]? {
        guard !done else { return nil }
        if let chunk = try source.nextChunk() {
            return compressor.compress(chunk, finish: false)
        }
        done = true
        return compressor.compress([], finish: true)
    }
}
