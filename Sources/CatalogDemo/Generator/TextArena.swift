/// All the generator's word material as UTF-8 in one byte array, so the hot loop copies bytes by
/// offset instead of retaining and appending `String` values.
struct TextArena: Sendable {
    /// A piece of text in the arena.
    struct Ref: Sendable {
        /// Offset of the first byte.
        var start: Int32
        /// Length in bytes.
        var bytes: Int32
        /// Length in characters (what a description's 60–250 limit counts).
        var characters: Int32
    }

    /// The text, piece after piece.
    private(set) var bytes: [UInt8] = []
    private var known: [String: Ref] = [:]

    /// Stores `text` (once) and returns where it is.
    mutating func add(_ text: String) -> Ref {
        if let ref = known[text] { return ref }
        let ref = Ref(start: Int32(bytes.count), bytes: Int32(text.utf8.count), characters: Int32(text.count))
        bytes.append(contentsOf: text.utf8)
        known[text] = ref
        return ref
    }
}

/// A reusable output buffer that strings are assembled in before becoming one `String`.
struct TextWriter {
    private let arena: UnsafeBufferPointer<UInt8>
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0
    /// Characters written so far.
    private(set) var characters = 0

    /// Creates a writer reading from `arena` into `buffer` (which must outlive it).
    init(arena: UnsafeBufferPointer<UInt8>, buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.arena = arena
        self.buffer = buffer
    }

    /// Starts a new string.
    @inline(__always)
    mutating func reset() {
        count = 0
        characters = 0
    }

    /// Appends a piece of the arena.
    @inline(__always)
    mutating func append(_ ref: TextArena.Ref) {
        let length = Int(ref.bytes)
        precondition(count + length <= buffer.count, "generated text too long")
        (buffer.baseAddress! + count).update(from: arena.baseAddress! + Int(ref.start), count: length)
        count += length
        characters += Int(ref.characters)
    }

    /// Appends one space.
    @inline(__always)
    mutating func space() {
        precondition(count < buffer.count, "generated text too long")
        buffer[count] = 0x20
        count += 1
        characters += 1
    }

    /// The text written since the last ``reset()``.
    @inline(__always)
    func string() -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
    }
}
