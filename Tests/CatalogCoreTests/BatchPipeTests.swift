import CatalogCore
import Foundation
import Testing

/// The pipe between two stages of an import: batches in order, then the sender's result.
@Suite struct BatchPipeTests {
    @Test func theSendersResultComesAfterTheLastBatch() throws {
        let pipe = BatchPipe<Int, String>(capacity: 2)
        let sender = Thread {
            do {
                for n in 0..<5 { try pipe.send([n, n]) }
                pipe.finish(.success("five"))
            } catch {
                pipe.finish(.failure(error))
            }
        }
        sender.start()
        var received: [Int] = []
        var ending: String?
        while ending == nil {
            switch try pipe.receive() {
            case .batch(let batch): received += batch
            case .end(let result): ending = result
            }
        }
        #expect(received == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
        #expect(ending == "five")
    }

    struct Failure: Error {}

    @Test func theSendersErrorIsRethrownAfterItsBatches() throws {
        let pipe = BatchPipe<Int, Void>()
        try pipe.send([1])
        pipe.finish(error: Failure())
        guard case .batch(let batch) = try pipe.receive() else {
            Issue.record("expected the batch first")
            return
        }
        #expect(batch == [1])
        #expect(throws: Failure.self) { _ = try pipe.receive() }
    }
}
