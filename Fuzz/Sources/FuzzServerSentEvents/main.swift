// libFuzzer target: CatalogClient's event-stream reader (ServerSentEventParser) over any bytes.
// The first byte picks how the rest is cut into chunks; the events (and the reconnection time and
// last event id) must be the same as when the bytes come whole and when they come one at a time,
// and no event holds what the format cannot carry (a CR or LF in a type or id, a NUL in an id,
// a CR in data).
import CatalogClient

/// What a parser made of `chunks`: its events, or that it refused (a line too long), and what it
/// kept.
struct Outcome: Equatable {
    var events: [ServerSentEvent] = []
    var refused = false
    var reconnectionTime: Int?
    var lastEventID = ""
}

func parse(_ chunks: [ArraySlice<UInt8>]) -> Outcome {
    // A small bound, so the refusal is reached too.
    var parser = ServerSentEventParser(maximumLength: 512)
    var outcome = Outcome()
    for chunk in chunks {
        do {
            outcome.events += try parser.parse(chunk)
        } catch {
            outcome.refused = true
            break
        }
    }
    outcome.reconnectionTime = parser.reconnectionTime
    outcome.lastEventID = parser.lastEventID
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let step = Int(data[0]) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = parse([bytes[...]])
    let cut = parse(stride(from: 0, to: bytes.count, by: step).map { bytes[$0..<min($0 + step, bytes.count)] })
    let single = parse(bytes.indices.map { bytes[$0...$0] })
    // A refusal may come at a different event when cut, so only streams it accepted are compared.
    if !whole.refused {
        guard cut == whole, single == whole else { fatalError("the events depend on how the bytes were cut") }
    } else {
        guard cut.refused, single.refused else { fatalError("a refusal depends on how the bytes were cut") }
    }
    for event in whole.events {
        guard !event.type.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }),
            !event.lastEventID.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" || $0 == "\u{0}" }),
            !event.data.unicodeScalars.contains("\r")
        else { fatalError("an event holds a line end the format cannot carry: \(event)") }
    }
    return 0
}
