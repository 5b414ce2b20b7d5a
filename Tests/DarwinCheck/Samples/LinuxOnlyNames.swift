// expect: glibc-import foundation-networking stat-timespec socket-type-rawvalue linux-only-c proc-path
//
// Glibc's spellings on lines every platform compiles.

import Foundation
import Glibc
import FoundationNetworking

func modified(_ path: String) -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0 }
    return info.st_mtim.tv_sec
}

func openSocket() -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    _ = send(descriptor, nil, 0, Int32(MSG_NOSIGNAL))
    return descriptor
}

let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
