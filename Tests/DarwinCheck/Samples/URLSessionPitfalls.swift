// expect: async-bytes delegate-nsobject
//
// URLSession code that only one side of Foundation accepts.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func firstLine(of request: URLRequest) async throws -> String? {
    let (bytes, _) = try await URLSession.shared.bytes(for: request)
    return try await bytes.lines.first { _ in true }
}

final class Receiver: URLSessionDataDelegate {
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}
}
