import Testing

@testable import CatalogHTTP

/// The stream's queue and its reader's suspensions, without sockets: each suspension is resumed
/// exactly once and never before it happened, whatever the order of events.
@Suite struct EventStreamStateTests {
    typealias Ended = EventStreamState.Ended

    /// The state, held by reference so expectations can change it.
    final class Stream {
        var state: EventStreamState

        init(limit: Int = 1024, attached: Bool = true) {
            state = EventStreamState(limit: limit)
            if attached { _ = state.attach() }
        }

        /// Reads up to `capacity` bytes: the text read, or `<end>`, `<abort>`, `<suspend>`.
        func read(_ capacity: Int = 1024) -> String {
            var buffer = [UInt8](repeating: 0, count: capacity)
            let result = buffer.withUnsafeMutableBytes { state.read(into: $0) }
            switch result {
            case .bytes(let count): return String(decoding: buffer[..<count], as: UTF8.self)
            case .end: return "<end>"
            case .abort: return "<abort>"
            case .suspend: return "<suspend>"
            }
        }

        func enqueue(_ text: String, heartbeat: Bool = false) -> EventStreamState.Queued {
            state.enqueue(Array(text.utf8), heartbeat: heartbeat)
        }

        func suspended() -> Bool { state.suspended() }
        func finish() -> Ended { state.finish() }
        func end(_ reason: EventStream.CloseReason) -> Ended { state.end(reason) }
        func release(_ reason: EventStream.CloseReason = .clientGone) -> Ended { state.release(reason) }
        func heartbeatDue() -> Bool { state.heartbeatDue() }
    }

    @Test func anEmptyQueueSuspendsAndTheNextFrameResumesOnce() {
        let state = Stream()
        #expect(state.read() == "<suspend>")
        #expect(state.state.reader == .suspending)
        #expect(!state.suspended(), "nothing arrived meanwhile: stay suspended")
        #expect(state.state.reader == .suspended)
        #expect(state.enqueue("a") == .accepted(resume: true), "the one resume")
        #expect(state.enqueue("b") == .accepted(resume: false), "already resumed")
        #expect(state.read() == "ab")
        #expect(state.read() == "<suspend>")
    }

    @Test func aFrameWhileSuspendingIsPickedUpByTheReaderItself() {
        let state = Stream()
        #expect(state.read() == "<suspend>")
        // Another thread queues before the reader's MHD_suspend_connection returned.
        #expect(state.enqueue("a") == .accepted(resume: false), "never resume before the suspension")
        #expect(state.state.reader == .wakeRequested)
        #expect(state.suspended(), "the reader resumes at once")
        #expect(state.state.reader == .reading)
        #expect(state.read() == "a")
    }

    @Test func framesLargerThanTheBufferGoOutInPieces() {
        let state = Stream()
        _ = state.enqueue("hello ")
        _ = state.enqueue("world")
        #expect(state.state.queuedBytes == 11)
        #expect(state.read(4) == "hell")
        #expect(state.read(4) == "o wo")
        #expect(state.read(4) == "rld")
        #expect(state.state.queuedBytes == 0)
    }

    @Test func finishSendsWhatIsQueuedThenEnds() {
        let state = Stream()
        _ = state.enqueue("last")
        #expect(state.finish() == Ended(closed: true, resume: false))
        #expect(state.state.closeReason == .finished)
        #expect(state.enqueue("more") == .refused)
        #expect(state.read() == "last")
        #expect(state.read() == "<end>")
        #expect(state.finish() == Ended(closed: false, resume: false), "once")
    }

    @Test func finishWakesASuspendedReader() {
        let state = Stream()
        _ = state.read()
        _ = state.suspended()
        #expect(state.finish() == Ended(closed: true, resume: true))
        #expect(state.read() == "<end>")
    }

    @Test func stoppingCompletesTheFrameBeingSentAndDropsTheRest() {
        let state = Stream()
        _ = state.enqueue("first\n")
        _ = state.enqueue("second\n")
        #expect(state.read(3) == "fir")
        #expect(state.end(.serverStopping) == Ended(closed: true, resume: false))
        #expect(state.read() == "st\n", "the client never sees half an event")
        #expect(state.read() == "<end>")
    }

    @Test func stoppingCutsAFinishedQueueToo() {
        let state = Stream()
        _ = state.enqueue("a")
        _ = state.finish()
        #expect(state.end(.serverStopping).closed == false, "the first reason stays")
        #expect(state.state.closeReason == .finished)
        #expect(state.read() == "<end>", "nothing more is sent")
    }

    @Test func overflowClosesAndDropsTheQueue() {
        let state = Stream(limit: 10)
        #expect(state.enqueue("12345678") == .accepted(resume: false))
        #expect(state.enqueue("123") == .overflowed(resume: false))
        #expect(state.state.closeReason == .fellBehind)
        #expect(state.state.queuedBytes == 0)
        #expect(state.read() == "<abort>")
        #expect(state.enqueue("1") == .refused)
    }

    @Test func anOverflowWhileSuspendedWakesTheReaderToAbort() {
        let state = Stream(limit: 4)
        _ = state.read()
        _ = state.suspended()
        #expect(state.enqueue("too large") == .overflowed(resume: true))
        #expect(state.read() == "<abort>")
    }

    @Test func aClientGoneAborts() {
        let state = Stream()
        _ = state.enqueue("a")
        #expect(state.end(.clientGone) == Ended(closed: true, resume: false))
        #expect(state.read() == "<abort>")
    }

    @Test func releaseMeansTheClientWentAwayUnlessSomethingElseClosedIt() {
        let open = Stream()
        #expect(open.release() == Ended(closed: true, resume: false))
        #expect(open.state.closeReason == .clientGone)
        #expect(open.enqueue("a") == .refused)
        let finished = Stream()
        _ = finished.finish()
        #expect(finished.release().closed == false)
        #expect(finished.state.closeReason == .finished)
        let refused = Stream(limit: 10, attached: false)
        #expect(refused.release(.refused).closed)
        #expect(refused.state.closeReason == .refused)
    }

    @Test func heartbeatsAreDueOnlyOnQuietAttachedStreams() {
        let detached = Stream(limit: 100, attached: false)
        #expect(!detached.heartbeatDue(), "no server has it yet")
        let state = Stream()
        #expect(state.heartbeatDue())
        _ = state.enqueue(": keep-alive\n", heartbeat: true)
        #expect(state.heartbeatDue(), "a heartbeat is not activity")
        _ = state.enqueue("data: x\n\n")
        #expect(!state.heartbeatDue(), "it sent something since the last tick")
        #expect(state.heartbeatDue())
        _ = state.finish()
        #expect(!state.heartbeatDue())
    }

    @Test func aStreamIsAttachedOnce() {
        var state = EventStreamState(limit: 10)
        let first = state.attach()
        let second = state.attach()
        #expect(first && !second)
    }
}
