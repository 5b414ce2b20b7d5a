import CZlib
import Foundation

/// Decodes an HTTP body's `Content-Encoding` (gzip, deflate or none) as it arrives, chunk by
/// chunk, counting the decoded bytes and stopping before they pass a limit: a small compressed
/// body that inflates to gigabytes (a "zip bomb") costs at most the limit, in 64 KB pieces.
///
/// ```swift
/// let decoder = try ContentDecoder(coding: ContentDecoder.Coding(contentEncoding: "gzip"), maxBytes: 1 << 20)
/// _ = try decoder.decode(chunk) { piece in file.write(piece) }   // for each chunk received
/// try decoder.finish()                                           // after the last one
/// ```
///
/// - gzip (`gzip`, `x-gzip`): one member or several concatenated (RFC 1952 allows it); zlib
///   streams are read too.
/// - deflate: the zlib format (RFC 1950) as the standard says, or raw deflate (RFC 1951) as some
///   servers send it, told apart by the zlib header's check bits.
/// - identity: the bytes as they are, still counted.
///
/// Owns its zlib stream and frees it in `deinit`. Not Sendable: one decoder per download, used on
/// one thread.
public final class ContentDecoder {
    /// A body's content coding.
    public enum Coding: Sendable, Equatable {
        /// No coding: the bytes as sent.
        case identity
        /// gzip (RFC 1952).
        case gzip
        /// deflate: zlib (RFC 1950), or raw deflate (RFC 1951).
        case deflate

        /// The coding a `Content-Encoding` header names.
        ///
        /// - Parameter contentEncoding: the header's value; nil or empty means identity.
        /// - Throws: ``Failure/unsupported(_:)`` for any other coding (`br`, `zstd`, `compress`),
        ///   or for several codings applied one after the other.
        public init(contentEncoding: String?) throws(Failure) {
            let codings = (contentEncoding ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty && $0 != "identity" }
            guard codings.count <= 1 else {
                throw .unsupported(codings.joined(separator: ", "))
            }
            switch codings.first {
            case nil: self = .identity
            case "gzip", "x-gzip": self = .gzip
            case "deflate": self = .deflate
            case let other?: throw .unsupported(other)
            }
        }
    }

    /// Why a body cannot be decoded.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The decoded bytes would pass the limit.
        case tooLarge(limit: Int64)
        /// The coding is not one this decoder reads.
        case unsupported(String)
        /// The compressed bytes are not a valid stream (zlib's reason).
        case corrupt(String)
        /// The body ended before the compressed stream did.
        case truncated
        /// Bytes follow the end of a deflate stream.
        case trailingData

        public var description: String {
            switch self {
            case .tooLarge(let limit): "the decoded body is larger than \(limit) bytes"
            case .unsupported(let coding):
                "the body's Content-Encoding \"\(coding)\" is not supported (gzip or deflate)"
            case .corrupt(let reason): "the compressed body is corrupt (\(reason))"
            case .truncated: "the compressed body ends early"
            case .trailingData: "bytes follow the end of the compressed body"
            }
        }
    }

    private enum State {
        /// deflate: waiting for the two bytes that tell zlib from raw deflate.
        case sniffing
        /// Inflating a stream.
        case inflating
        /// A stream ended; gzip may start another member.
        case ended
    }

    /// The coding decoded.
    public let coding: Coding
    /// The most decoded bytes accepted.
    public let maxBytes: Int64
    /// Decoded bytes produced so far.
    public private(set) var decodedBytes: Int64 = 0
    /// Encoded bytes consumed so far.
    public private(set) var encodedBytes: Int64 = 0

    private var state: State
    private var prefix: [UInt8] = []
    private var initialized = false
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer

    /// The size of each decoded piece handed over.
    static let pieceSize = 64 * 1024

    /// Creates a decoder for `coding` that refuses to produce more than `maxBytes`.
    public init(coding: Coding, maxBytes: Int64) {
        self.coding = coding
        self.maxBytes = maxBytes
        self.stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        self.output = .allocate(byteCount: Self.pieceSize, alignment: 16)
        switch coding {
        case .identity, .gzip: state = .inflating
        case .deflate: state = .sniffing
        }
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Decodes the next chunk of the body, handing each decoded piece (at most 64 KB) to `sink`,
    /// which returns false to stop.
    ///
    /// - Returns: false when `sink` stopped the decoding.
    /// - Throws: a ``Failure``; nothing more may be decoded then.
    public func decode(_ chunk: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(Failure)
        -> Bool
    {
        guard !chunk.isEmpty else { return true }
        encodedBytes += Int64(chunk.count)
        if coding == .identity {
            try count(chunk.count)
            return sink(chunk)
        }
        if case .sniffing = state {
            let needed = 2 - prefix.count
            prefix.append(contentsOf: chunk.prefix(needed))
            guard prefix.count == 2 else { return true }
            try start(windowBits: Self.isZlibHeader(prefix[0], prefix[1]) ? 15 : -15)
            let head = prefix
            var going = true
            var failure: Failure?
            head.withUnsafeBytes { bytes in
                do throws(Failure) {
                    going = try inflate(bytes, into: sink)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            guard going else { return false }
            return try inflate(UnsafeRawBufferPointer(rebasing: chunk[min(needed, chunk.count)...]), into: sink)
        }
        if !initialized { try start(windowBits: 15 + 32) }
        return try inflate(chunk, into: sink)
    }

    /// Says the body is complete.
    ///
    /// - Throws: ``Failure/truncated`` when a compressed stream has not ended (an empty body is
    ///   fine).
    public func finish() throws(Failure) {
        switch coding {
        case .identity: return
        case .gzip, .deflate:
            if encodedBytes == 0 { return }
            guard case .ended = state else { throw .truncated }
        }
    }

    /// Whether two bytes start a zlib stream (RFC 1950: method 8, window at most 32 KB, and the
    /// header a multiple of 31), not raw deflate.
    static func isZlibHeader(_ first: UInt8, _ second: UInt8) -> Bool {
        first & 0x0F == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }

    private func start(windowBits: Int32) throws(Failure) {
        let status = czlib_inflate_init(stream, windowBits)
        guard status == Z_OK else { throw .corrupt("zlib cannot start: \(status)") }
        initialized = true
        state = .inflating
    }

    private func count(_ produced: Int) throws(Failure) {
        guard decodedBytes + Int64(produced) <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        decodedBytes += Int64(produced)
    }

    private func inflate(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(Failure)
        -> Bool
    {
        guard let base = input.baseAddress, !input.isEmpty else { return true }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            if case .ended = state {
                guard stream.pointee.avail_in > 0 else { return true }
                // Another gzip member may follow; anything after a zlib or raw stream is an error.
                guard coding == .gzip else { throw .trailingData }
                inflateReset(stream)
                state = .inflating
            }
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 {
                try count(produced)
                guard sink(UnsafeRawBufferPointer(rebasing: output[0..<produced])) else { return false }
            }
            switch status {
            case Z_STREAM_END:
                state = .ended
            case Z_OK:
                if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return true }
            case Z_BUF_ERROR:
                // No progress was possible: all input consumed, or the output buffer was full.
                if stream.pointee.avail_in == 0 { return true }
                throw .corrupt("zlib made no progress")
            case Z_NEED_DICT:
                throw .corrupt("it needs a preset dictionary")
            case Z_MEM_ERROR:
                throw .corrupt("out of memory")
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .corrupt(reason)
            }
        }
    }
}
