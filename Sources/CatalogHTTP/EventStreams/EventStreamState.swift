/// One event stream's queue and its content reader's state as a value: every event (a frame
/// queued, the reader asking for bytes, a suspension, the server stopping) returns what the
/// caller must do, above all whether it must resume the connection. No locks and no I/O here;
/// ``EventStream`` holds it behind its mutex and does what it says.
///
/// The reader runs on the connection's libmicrohttpd worker. When the queue is empty it is told to
/// suspend the connection (``Reader/suspending``); anything that wants the connection back (a
/// frame, the end) while it is suspending asks for a wake instead (``Reader/wakeRequested``), and
/// the reader, once suspended, resumes at once. Only the one transition out of
/// ``Reader/suspended`` returns `resume: true`, so a connection is resumed exactly once per
/// suspension, and never before it was suspended (libmicrohttpd leaves that undefined).
struct EventStreamState: Sendable {
    /// What the content reader is doing, as seen by the threads that may want it back.
    enum Reader: Sendable, Equatable {
        /// Sending, or about to be asked for bytes.
        case reading
        /// Told to suspend its connection and not yet done with it.
        case suspending
        /// Its connection is suspended.
        case suspended
        /// Still suspending, and already wanted back: it resumes as soon as it is suspended.
        case wakeRequested
    }

    /// How the body ends.
    enum Ending: Sendable, Equatable {
        /// It does not end yet.
        case none
        /// After every queued frame is sent (the producer finished).
        case afterQueue
        /// After the frame being sent, if any (the server stops): a clean end, nothing more.
        case now
        /// At once, without the last chunk, so the client sees the body cut short.
        case abort
    }

    /// What the content reader does when libmicrohttpd asks it for bytes.
    enum Read: Sendable, Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// The body is complete: libmicrohttpd sends the last chunk.
        case end
        /// The body breaks off: libmicrohttpd closes the connection.
        case abort
        /// Nothing to send: suspend the connection, call ``suspended()``, then return 0.
        case suspend
    }

    /// What queueing a frame did.
    enum Queued: Sendable, Equatable {
        /// The frame is queued; `resume`: the caller must resume the connection.
        case accepted(resume: Bool)
        /// The stream no longer takes frames.
        case refused
        /// The frame did not fit: the stream is closed (``EventStream/CloseReason/fellBehind``) and
        /// its queue dropped.
        case overflowed(resume: Bool)
    }

    /// What ending the stream did.
    struct Ended: Sendable, Equatable {
        /// True when this call closed the stream (its close reason was set now).
        var closed: Bool
        /// True when the caller must resume the connection.
        var resume: Bool
    }

    /// The most bytes queued and not yet handed to libmicrohttpd.
    let limit: Int

    private var frames: [[UInt8]] = []
    /// The first frame not completely handed over, and how much of it was.
    private var head = 0
    private var offset = 0
    /// Bytes queued and not yet handed over.
    private(set) var queuedBytes = 0
    private(set) var reader = Reader.reading
    private(set) var ending = Ending.none
    /// Why the stream stopped taking frames; nil while it takes them.
    private(set) var closeReason: EventStream.CloseReason?
    /// True once a server took the stream as a response body.
    private(set) var attached = false
    /// True once the server let go of it (its response was freed, or it was refused).
    private(set) var released = false
    /// Whether anything but a heartbeat was queued since the last heartbeat tick.
    private var activeSinceTick = false

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Whether a frame is waiting (wholly or partly) to be handed over.
    var hasQueuedFrames: Bool { head < frames.count }

    /// Queues `frame`; a heartbeat does not count as activity.
    mutating func enqueue(_ frame: [UInt8], heartbeat: Bool = false) -> Queued {
        guard closeReason == nil, !released else { return .refused }
        if queuedBytes + frame.count > limit {
            let ended = end(.fellBehind, ending: .abort)
            return .overflowed(resume: ended.resume)
        }
        if !heartbeat { activeSinceTick = true }
        guard !frame.isEmpty else { return .accepted(resume: false) }
        frames.append(frame)
        queuedBytes += frame.count
        return .accepted(resume: wake())
    }

    /// The heartbeat tick: true when nothing but heartbeats was queued since the last tick, so a
    /// heartbeat is due now.
    mutating func heartbeatDue() -> Bool {
        defer { activeSinceTick = false }
        return closeReason == nil && attached && !released && !activeSinceTick
    }

    /// The reader is asked for up to `buffer.count` bytes.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        if ending == .abort || released { return .abort }
        if hasQueuedFrames {
            var copied = 0
            while copied < buffer.count, head < frames.count {
                let frame = frames[head]
                let count = min(buffer.count - copied, frame.count - offset)
                frame.withUnsafeBytes { bytes in
                    buffer.baseAddress!.advanced(by: copied).copyMemory(
                        from: bytes.baseAddress!.advanced(by: offset), byteCount: count)
                }
                copied += count
                offset += count
                if offset == frame.count {
                    head += 1
                    offset = 0
                }
            }
            queuedBytes -= copied
            compact()
            return .bytes(copied)
        }
        if ending != .none { return .end }
        reader = .suspending
        return .suspend
    }

    /// The reader suspended its connection; true when it must resume it at once (it was wanted
    /// back meanwhile).
    mutating func suspended() -> Bool {
        if reader == .wakeRequested {
            reader = .reading
            return true
        }
        reader = .suspended
        return false
    }

    /// A server took the stream; false when one already had.
    mutating func attach() -> Bool {
        guard !attached else { return false }
        attached = true
        return true
    }

    /// The producer finished: the queued frames are sent, then the body ends.
    mutating func finish() -> Ended {
        guard closeReason == nil, !released else { return Ended(closed: false, resume: false) }
        return end(.finished, ending: .afterQueue)
    }

    /// Ends the stream for `reason`: ``EventStream/CloseReason/serverStopping`` ends it cleanly
    /// after the frame being sent (even one that finished with frames still queued), any other
    /// reason aborts it. The close reason is the first one given.
    mutating func end(_ reason: EventStream.CloseReason) -> Ended {
        end(reason, ending: reason == .serverStopping ? .now : .abort)
    }

    /// The server let go of the stream (libmicrohttpd freed its response, or never got it): it
    /// takes no more frames, and if nothing closed it before, its client went away.
    mutating func release(_ reason: EventStream.CloseReason = .clientGone) -> Ended {
        let ended = end(reason, ending: .abort)
        released = true
        reader = .reading
        return Ended(closed: ended.closed, resume: false)
    }

    private mutating func end(_ reason: EventStream.CloseReason, ending newEnding: Ending) -> Ended {
        let closed = closeReason == nil
        if closed { closeReason = reason }
        switch newEnding {
        case .abort:
            ending = .abort
            dropFrames(keepingPartial: false)
        case .now where ending != .abort:
            ending = .now
            dropFrames(keepingPartial: true)
        case .afterQueue where ending == .none:
            ending = .afterQueue
        default:
            break
        }
        return Ended(closed: closed, resume: released ? false : wake())
    }

    /// Wants the reader back: true when the caller must resume the connection.
    private mutating func wake() -> Bool {
        switch reader {
        case .suspended:
            reader = .reading
            return true
        case .suspending:
            reader = .wakeRequested
            return false
        case .reading, .wakeRequested:
            return false
        }
    }

    /// Drops what is queued; with `keepingPartial`, the rest of a frame partly handed over stays,
    /// so the client never sees half an event before the end.
    private mutating func dropFrames(keepingPartial: Bool) {
        if keepingPartial, offset > 0, head < frames.count {
            frames = [frames[head]]
            queuedBytes = frames[0].count - offset
        } else {
            frames = []
            offset = 0
            queuedBytes = 0
        }
        head = 0
    }

    /// Forgets frames already handed over once they are most of the array.
    private mutating func compact() {
        if head == frames.count {
            frames.removeAll(keepingCapacity: frames.count <= 64)
            head = 0
        } else if head >= 64, head * 2 >= frames.count {
            frames.removeFirst(head)
            head = 0
        }
    }
}
