/// How events are written on the wire (the `text/event-stream` format of the HTML standard,
/// §9.2): fields `name: value`, one per line, an event ended by an empty line, comments starting
/// with a colon. Lines end with LF only; a client splits lines at CR LF, LF and CR alike, so data
/// holding any of them becomes several `data:` lines, which the client joins with LF.
extension EventStream {
    /// The comment the server sends on a quiet stream.
    static let heartbeatFrame = commentFrame("keep-alive")

    /// One event: `id:`, `event:`, a `data:` line per line of `data`, and the empty line that
    /// dispatches it.
    static func frame(id: String?, event: String?, data: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 32)
        if let id { field("id", oneLine(id), into: &bytes) }
        if let event { field("event", oneLine(event), into: &bytes) }
        forEachLine(of: data) { line in field("data", line, into: &bytes) }
        bytes.append(lineFeed)
        return bytes
    }

    /// A comment: one `: text` line per line of `text`. Clients ignore it.
    static func commentFrame(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        forEachLine(of: text) { line in field("", line, into: &bytes) }
        return bytes
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// `name: value` and a line feed (`: value` for a comment). The space after the colon is the
    /// one a client strips, so a value that starts with a space keeps it.
    private static func field(_ name: String, _ value: some Collection<UInt8>, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: value)
        bytes.append(lineFeed)
    }

    /// `text` without CR, LF and NUL: an `id` or `event` field is one line, and a client ignores
    /// an `id` that holds a NUL.
    private static func oneLine(_ text: String) -> [UInt8] {
        text.utf8.filter { $0 != lineFeed && $0 != carriageReturn && $0 != 0 }
    }

    /// Calls `body` with each line of `text` (ended by CR LF, LF, CR or the end); an empty text
    /// is one empty line.
    private static func forEachLine(of text: String, _ body: (ArraySlice<UInt8>) -> Void) {
        let bytes = Array(text.utf8)
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == lineFeed || byte == carriageReturn else {
                index += 1
                continue
            }
            body(bytes[start..<index])
            index += byte == carriageReturn && index + 1 < bytes.count && bytes[index + 1] == lineFeed ? 2 : 1
            start = index
        }
        body(bytes[start..<bytes.count])
    }
}
