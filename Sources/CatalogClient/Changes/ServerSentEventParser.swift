/// One event of a `text/event-stream` (Server-Sent Events): its type, its data and the last event
/// id the stream had set when it was dispatched.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field, `message` when the event had none.
    public var type: String
    /// The `data:` lines, joined with line feeds.
    public var data: String
    /// The stream's last event id at this event (an `id:` field of this event or an earlier one).
    public var lastEventID: String

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Reads a `text/event-stream` as it arrives, in chunks cut anywhere, exactly as the HTML
/// standard's event-stream interpretation (§9.2.6) says: one leading byte order mark is
/// skipped; lines end with CR LF, LF or CR (a CR at the end of one chunk and an LF at the start of
/// the next are one line end); an empty line dispatches the event, unless it has no `data:`;
/// `data:` lines are joined with LF; a line starting with a colon is a comment; an `id:` with a
/// NUL is ignored; `retry:` takes only ASCII digits; unknown fields are ignored; an event the
/// stream ends inside is dropped. Text is UTF-8, invalid bytes becoming U+FFFD.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for event in try parser.parse(Array("id: 7\nevent: change\ndata: {}\n\n".utf8)) {
///     print(event.lastEventID, event.type, event.data)  // 7 change {}
/// }
/// ```
///
/// Unlike a browser it bounds what it holds: a line or an event's data longer than
/// ``maximumLength`` bytes throws ``TooLong`` (the stream cannot be followed further).
public struct ServerSentEventParser: Sendable {
    /// A line or an event longer than the parser holds.
    public struct TooLong: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bound that was passed, in bytes.
        public var limit: Int

        /// The error for a bound of `limit` bytes.
        public init(limit: Int) {
            self.limit = limit
        }

        public var description: String { "an event stream line or event is longer than \(limit) bytes" }
    }

    /// The most bytes a line, and an event's data, may have.
    public let maximumLength: Int
    /// The reconnection time the stream asked for with `retry:`, in milliseconds; nil until then.
    public private(set) var reconnectionTime: Int?
    /// The last event id the stream set (kept from event to event, as a browser keeps it).
    public private(set) var lastEventID = ""
    /// Comments read so far (a server's heartbeats are comments).
    public private(set) var commentCount = 0

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The first bytes of the stream while they may still be a byte order mark.
    private var start: [UInt8] = []
    private var atStart = true
    private var line: [UInt8] = []
    /// The last byte was a CR: an LF right after it ends nothing.
    private var afterCarriageReturn = false
    private var data: [UInt8] = []
    private var eventType: [UInt8] = []
    private var pendingID: [UInt8] = []

    /// A parser at the start of a stream.
    ///
    /// - Parameter maximumLength: the most bytes a line, and an event's data, may have (by
    ///   default 4 MiB).
    public init(maximumLength: Int = 4 * 1024 * 1024) {
        self.maximumLength = max(1, maximumLength)
    }

    /// Reads the next bytes of the stream.
    ///
    /// - Returns: the events these bytes completed, in order.
    /// - Throws: ``TooLong`` when a line or an event outgrows ``maximumLength``; the parser must
    ///   not be used after that.
    public mutating func parse(_ bytes: some Sequence<UInt8>) throws(TooLong) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if atStart {
                start.append(byte)
                if start.count < Self.byteOrderMark.count, Self.byteOrderMark.starts(with: start) { continue }
                atStart = false
                let held = start
                start = []
                if held == Self.byteOrderMark { continue }
                for byte in held { try read(byte, into: &events) }
                continue
            }
            try read(byte, into: &events)
        }
        return events
    }

    private mutating func read(_ byte: UInt8, into events: inout [ServerSentEvent]) throws(TooLong) {
        if afterCarriageReturn {
            afterCarriageReturn = false
            if byte == Self.lineFeed { return }
        }
        switch byte {
        case Self.lineFeed:
            try endLine(into: &events)
        case Self.carriageReturn:
            afterCarriageReturn = true
            try endLine(into: &events)
        default:
            guard line.count < maximumLength else { throw TooLong(limit: maximumLength) }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) throws(TooLong) {
        defer { line.removeAll(keepingCapacity: true) }
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == Self.colon {
            commentCount += 1
            return
        }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: Self.colon) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = Array(value)
        case "data":
            guard data.count + value.count < maximumLength else { throw TooLong(limit: maximumLength) }
            data.append(contentsOf: value)
            data.append(Self.lineFeed)
        case "id":
            if !value.contains(0) { pendingID = Array(value) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                // Digits beyond what an Int holds still mean "a long time".
                reconnectionTime = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = String(decoding: pendingID, as: UTF8.self)
        defer {
            data.removeAll(keepingCapacity: true)
            eventType = []
        }
        guard !data.isEmpty else { return }
        data.removeLast()
        events.append(
            ServerSentEvent(
                type: eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self),
                data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID))
    }
}
