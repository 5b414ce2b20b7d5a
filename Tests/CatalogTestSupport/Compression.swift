import CZlib

/// Compressed bodies for the decoder, fetcher and CLI tests (hostile feeds among them), made with zlib.
public enum Compression {
    /// zlib's framings of deflate.
    public enum Framing: Sendable {
        case gzip, zlib, raw

        var windowBits: Int32 {
            switch self {
            case .gzip: 15 + 16
            case .zlib: 15
            case .raw: -15
            }
        }

        /// The bytes a stream of this framing starts with, before its first block (for streams
        /// that never end).
        public var header: [UInt8] {
            switch self {
            case .gzip: [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
            case .zlib: [0x78, 0x9C]
            case .raw: []
            }
        }
    }

    /// `input` compressed into one complete stream.
    public static func compress(_ input: [UInt8], _ framing: Framing) -> [UInt8] {
        deflate(input, framing, flush: Z_FINISH)
    }

    /// `input` compressed, then flushed so the bytes end on a block boundary with no reference
    /// to anything before them: repeating them after ``Framing/header`` gives a valid stream that
    /// never ends. One MB of zeros is about a thousand bytes of it.
    public static func segment(of input: [UInt8]) -> [UInt8] {
        deflate(input, .raw, flush: Z_FULL_FLUSH)
    }

    private static func deflate(_ input: [UInt8], _ framing: Framing, flush: Int32) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deallocate()
        }
        precondition(czlib_deflate_init(stream, 9, framing.windowBits) == Z_OK)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = uInt(inputBuffer.count)
            repeat {
                buffer.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outputBuffer.count)
                    _ = CZlib.deflate(stream, flush)
                    output.append(contentsOf: outputBuffer[0..<(outputBuffer.count - Int(stream.pointee.avail_out))])
                }
            } while stream.pointee.avail_out == 0
        }
        return output
    }
}
