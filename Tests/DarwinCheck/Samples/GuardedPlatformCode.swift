// expect: clean
//
// The same needs, each behind its platform's branch; comments and strings that name Glibc's
// spellings (import Glibc, st_mtim) are not code.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func modified(_ path: String) -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0 }
    #if canImport(Darwin)
        return info.st_mtimespec.tv_sec
    #else
        return info.st_mtim.tv_sec
    #endif
}

func residentPages() -> String? {
    #if os(Linux)
        return try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    #else
        return nil
    #endif
}

let note = "import Glibc and st_mtim in a string"
